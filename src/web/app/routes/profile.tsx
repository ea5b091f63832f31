import { MyAddressBook } from "../../features/account/components/address-book";
import { ActiveSessions } from "../../features/account/components/active-sessions";
import { ChangePasswordForm } from "../../features/account/components/change-password-form";
import { EmailVerification } from "../../features/account/components/email-verification";
import { OrderEmailSettings } from "../../features/account/components/order-email-settings";
import { ProfileForm } from "../../features/account/components/profile-form";
import { TwoFactorSettings } from "../../features/account/components/two-factor-settings";
import { Today } from "../../features/admin-home/components/today";
import { RefundsToRetryList } from "../../features/payments/components/refunds-to-retry";
import { usePageTitle } from "../../components/page-title";
import { useSession } from "../../lib/session";

/** The dashboard's index: My Info (SPEC), under "Today" for an admin (docs/admin-home.md). */
export function ProfileRoute() {
  usePageTitle("My Profile");
  const { data: user } = useSession();
  return (
    <div className="flex flex-col gap-6">
      {user?.role === "admin" && (
        <Today refundsToRetry={(refunds) => <RefundsToRetryList refunds={refunds} />} />
      )}
      {user && <EmailVerification email={user.email} verified={user.emailVerified} />}
      <ProfileForm />
      {user && user.role !== "admin" && <MyAddressBook customerName={user.name} />}
      <OrderEmailSettings />
      <ChangePasswordForm />
      <ActiveSessions />
      {user && <TwoFactorSettings enabled={user.twoFactorEnabled === true} />}
    </div>
  );
}
