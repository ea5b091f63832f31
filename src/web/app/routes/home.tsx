import { cardCartAction } from "../../features/cart/components/add-to-cart-button";
import { NewestProducts } from "../../features/catalog/components/newest-products";
import { BusinessSummary } from "../../features/content/components/business-summary";
import { Clients } from "../../features/content/components/clients";
import { Hero } from "../../features/content/components/hero";
import { Leaders } from "../../features/content/components/leaders";
import { LazyLandingReviews } from "../../features/reviews/components/lazy-landing-reviews";
import { usePageTitle } from "../../components/page-title";
import { paths } from "#contract/paths";
import { useNavigate } from "react-router";
import { LazyVehicleSelector } from "../../features/fitment/components/lazy-vehicle-selector";
import { loadRememberedVehicle, rememberVehicle, vehicleToParams } from "../../lib/vehicle-choice";
import { toQueryString } from "../../lib/api-client";

export function HomeRoute() {
  usePageTitle(
    "Car spare parts from the manufacturer",
    "PartsWorks makes brake, filter, ignition, suspension and cooling parts and sells them straight from the factory: newest parts, customer reviews and the company in figures.",
  );
  const navigate = useNavigate();
  return (
    <>
      <Hero getStartedTo={paths.allProducts} />
      <section aria-labelledby="vehicle-heading" className="mx-auto max-w-6xl px-4 pt-10">
        <h2 id="vehicle-heading" className="mb-4 text-2xl font-bold">
          Find parts that fit your vehicle
        </h2>
        <LazyVehicleSelector
          value={loadRememberedVehicle()}
          onChoose={(v) => {
            rememberVehicle(v);
            void navigate(`${paths.allProducts}${toQueryString(vehicleToParams(v))}`);
          }}
        />
      </section>
      <NewestProducts seeAllTo={paths.allProducts} cardAction={cardCartAction} />
      <BusinessSummary />
      <Leaders />
      <Clients />
      <section aria-labelledby="reviews-heading" className="mx-auto max-w-6xl px-4 py-14">
        <h2 id="reviews-heading" className="mb-8 text-center text-3xl font-bold">
          What our customers say
        </h2>
        <LazyLandingReviews />
      </section>
    </>
  );
}
