import { Link } from "../../components/link";
import { usePageTitle } from "../../components/page-title";
import { AddReviewForm } from "../../features/reviews/components/add-review-form";
import { paths } from "#contract/paths";

export function AddReviewRoute() {
  usePageTitle("Add a Review");
  return (
    <div className="flex flex-col gap-4">
      <h1 className="text-2xl font-bold">Add a Review</h1>
      <p className="text-base-content/70">
        Tell other customers how our parts worked for you. Your review shows your name, never your
        email, on the{" "}
        <Link to={paths.review} className="link link-primary">
          reviews page
        </Link>
        .
      </p>
      <AddReviewForm />
    </div>
  );
}
