import { Link } from "../../components/link";
import { TitledPage } from "../../components/page-title";
import { AddReviewForm } from "../../features/reviews/components/add-review-form";
import { paths } from "#contract/paths";

export function AddReviewRoute() {
  return (
    <TitledPage title="Add a Review">
      <p className="text-base-content/70">
        Tell other customers how our parts worked for you. Your review shows your name, never your
        email, on the{" "}
        <Link to={paths.review} className="link link-primary">
          reviews page
        </Link>
        .
      </p>
      <AddReviewForm />
    </TitledPage>
  );
}
