import { useLocation } from "react-router";
import { usePageTitle } from "../../components/page-title";
import { PageSpinner } from "../../components/spinner";
import { AcceptInvitation } from "../../features/companies/components/accept-invitation";
import { useSession } from "../../lib/session";

export function CompanyInvitationRoute() {
  usePageTitle("Company invitation");
  const { search, pathname } = useLocation();
  const { data: user, isPending } = useSession();
  const token = new URLSearchParams(search).get("token") ?? "";
  return (
    <div className="mx-auto flex max-w-xl flex-col gap-4 px-4 py-10">
      <h1 className="text-2xl font-bold">Join your company's trade account</h1>
      {isPending ? (
        <PageSpinner />
      ) : (
        <AcceptInvitation token={token} signedIn={Boolean(user)} here={pathname + search} />
      )}
    </div>
  );
}
