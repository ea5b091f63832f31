import { cardCartAction } from "../../features/cart/components/add-to-cart-button";
import { NewestProducts } from "../../features/catalog/components/newest-products";
import { BusinessSummary } from "../../features/content/components/business-summary";
import { Clients } from "../../features/content/components/clients";
import { Hero } from "../../features/content/components/hero";
import { Leaders } from "../../features/content/components/leaders";
import { LANDING_REVIEWS_PAGE_SIZE } from "../../features/reviews/api/get-reviews";
import { ReviewList } from "../../features/reviews/components/review-list";
import { ReviewSummary } from "../../features/reviews/components/review-summary";
import { usePageTitle } from "../../components/page-title";
import { paths } from "#contract/paths";

export function HomeRoute() {
  usePageTitle(
    "Car spare parts from the manufacturer",
    "PartsWorks makes brake, filter, ignition, suspension and cooling parts and sells them straight from the factory: newest parts, customer reviews and the company in figures.",
  );
  return (
    <>
      <Hero getStartedTo={paths.allProducts} />
      <NewestProducts seeAllTo={paths.allProducts} cardAction={cardCartAction} />
      <BusinessSummary />
      <Leaders />
      <Clients />
      <section aria-labelledby="reviews-heading" className="mx-auto max-w-6xl px-4 py-14">
        <h2 id="reviews-heading" className="mb-8 text-center text-3xl font-bold">
          What our customers say
        </h2>
        <ReviewSummary />
        <ReviewList pageSize={LANDING_REVIEWS_PAGE_SIZE} />
      </section>
    </>
  );
}
