import { useApiForm } from "../../../lib/use-api-form";
import { useUnsavedChangesWarning } from "../../../lib/use-unsaved-changes";
import { notify } from "../../../lib/notify";
import { profileUpdateSchema, type Profile } from "#contract/users";
import { FormError, FormField, SubmitButton } from "../../../components/form-field";
import { PageSpinner } from "../../../components/spinner";
import { QueryError } from "../../../components/query-error";
import { useProfile, useUpdateProfile } from "../api/profile";

/** My Info: name and email are shown read-only; the other profile fields can be edited. */
export function ProfileForm() {
  const { data: profile, error, isPending } = useProfile();
  if (isPending) return <PageSpinner />;
  if (error) return <QueryError error={error} />;
  return <ProfileFields profile={profile} />;
}

function ProfileFields({ profile }: { profile: Profile }) {
  const update = useUpdateProfile();
  const {
    field,
    reset,
    submitWith,
    formError,
    formState: { isDirty },
  } = useApiForm(profileUpdateSchema, {
    defaultValues: {
      education: profile.education,
      address: profile.address,
      phoneNo: profile.phoneNo,
      linkedIn: profile.linkedIn,
    },
  });
  const unsaved = useUnsavedChangesWarning(isDirty);

  return (
    <form
      noValidate
      className="card border border-base-300 bg-base-100"
      onSubmit={submitWith(async (fields) => {
        const saved = await update.mutateAsync(fields);
        reset({
          education: saved.education,
          address: saved.address,
          phoneNo: saved.phoneNo,
          linkedIn: saved.linkedIn,
        });
        notify.success("Your profile is saved");
      })}
    >
      <div className="card-body grid gap-4 md:grid-cols-2">
        <h1 className="text-2xl font-bold md:col-span-2">My Info</h1>
        <FormField label="Name" name="name" value={profile.name} readOnly />
        <FormField label="Email" name="email" type="email" value={profile.email} readOnly />
        <FormField label="Education" {...field("education")} />
        <FormField
          label="Phone number"
          type="tel"
          inputMode="tel"
          autoComplete="tel"
          {...field("phoneNo")}
        />
        <FormField label="Address" autoComplete="street-address" {...field("address")} />
        <FormField
          label="LinkedIn profile"
          type="url"
          placeholder="https://www.linkedin.com/in/…"
          {...field("linkedIn")}
        />
        <FormError message={formError} className="text-error md:col-span-2" />
        <div className="md:col-span-2">
          <SubmitButton busy={update.isPending} disabled={!isDirty}>
            Save profile
          </SubmitButton>
        </div>
      </div>
      {unsaved.dialog}
    </form>
  );
}
