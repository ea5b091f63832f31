import { ProfileForm } from "../../features/account/components/profile-form";
import { usePageTitle } from "../../components/page-title";

export function ProfileRoute() {
  usePageTitle("My Profile");
  return <ProfileForm />;
}
