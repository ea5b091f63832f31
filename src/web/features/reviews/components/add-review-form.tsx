import { plural } from "#contract/count";
import { Controller, useWatch } from "react-hook-form";
import { useApiForm } from "../../../lib/use-api-form";
import {
  MAX_RATING,
  MAX_REVIEW_LENGTH,
  reviewCreateSchema,
  reviewMessages,
} from "#contract/reviews";
import { SubmitButton } from "../../../components/form-field";
import { TextAreaField } from "../../../components/text-area-field";
import { useCreateReview } from "../api/create-review";

const stars = Array.from({ length: MAX_RATING }, (_, i) => i + 1);

/** A rating from 1 to 5 stars and the review text; the author is whoever is signed in. */
export function AddReviewForm() {
  const create = useCreateReview();
  const {
    control,
    register,
    addWith,
    formState: { errors },
  } = useApiForm(reviewCreateSchema, {
    // No rating is chosen at first: a preset one would be a rating the customer never gave.
    defaultValues: { descreption: "" },
  });
  const length = useWatch({ control, name: "descreption" }).length;

  // The server checks the same rules; should it disagree, the hook says why beside the field.
  const onSubmit = addWith(create.mutateAsync, reviewMessages);

  return (
    <form noValidate className="card border border-base-300 bg-base-100" onSubmit={onSubmit}>
      <div className="card-body gap-5">
        <Controller
          control={control}
          name="ratings"
          render={({ field }) => (
            <fieldset className="flex flex-col gap-2">
              <legend className="mb-2 text-sm font-medium">Rating</legend>
              <div className="flex items-center gap-3">
                {/* The stars are masked shapes that would clip a focus ring: the row shows it. */}
                <div
                  className="rating rating-lg rounded-field p-1 has-[input:focus-visible]:outline-2 has-[input:focus-visible]:outline-offset-2 has-[input:focus-visible]:outline-primary"
                  data-testid="rating-stars"
                >
                  {stars.map((n) => (
                    <input
                      key={n}
                      ref={n === 1 ? field.ref : undefined}
                      type="radio"
                      name={field.name}
                      value={n}
                      checked={field.value === n}
                      onChange={() => field.onChange(n)}
                      onBlur={field.onBlur}
                      className="mask mask-star-2 bg-accent"
                      aria-label={plural(n, "star")}
                      aria-invalid={errors.ratings ? true : undefined}
                      aria-describedby={errors.ratings ? "ratings-error" : undefined}
                    />
                  ))}
                </div>
                <span className="text-sm text-base-content/70" aria-hidden="true">
                  {field.value ? `${field.value} of ${MAX_RATING}` : "Not rated yet"}
                </span>
              </div>
              {errors.ratings && (
                <p id="ratings-error" className="text-sm text-error">
                  {errors.ratings.message}
                </p>
              )}
            </fieldset>
          )}
        />
        <TextAreaField
          id="descreption"
          label="Your review"
          rows={6}
          error={errors.descreption?.message}
          hint={`${length} / ${MAX_REVIEW_LENGTH} characters`}
          {...register("descreption")}
        />
        <div>
          <SubmitButton busy={create.isPending}>Add Review</SubmitButton>
        </div>
        {create.isSuccess && create.data.pending && (
          <p role="status" className="text-sm text-base-content/80">
            {reviewMessages.pending}
          </p>
        )}
        {create.isError && (
          <p role="alert" className="text-error">
            {reviewMessages.failed}
          </p>
        )}
      </div>
    </form>
  );
}
