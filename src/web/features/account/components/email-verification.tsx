import { useResendVerification } from "../api/password";

/** Whether the account's address is verified, with a way to get the link again. */
export function EmailVerification({ email, verified }: { email: string; verified: boolean }) {
  const resend = useResendVerification();
  if (verified) {
    return (
      <p className="flex items-center gap-2 text-sm">
        <span className="badge badge-success badge-soft">Verified</span> {email}
      </p>
    );
  }
  return (
    <div role="status" className="alert alert-warning flex flex-wrap text-sm">
      <span>
        {email} is not verified yet: open the link we emailed you. You can shop meanwhile.
      </span>
      {resend.isSuccess ? (
        <span>A new link is on its way.</span>
      ) : (
        <button
          type="button"
          className="btn btn-sm"
          disabled={resend.isPending}
          onClick={() => resend.mutate(email)}
        >
          Send the link again
        </button>
      )}
      {resend.error && <span className="text-error">{resend.error.message}</span>}
    </div>
  );
}
