import { usePageTitle } from "../../components/page-title";
import { ContactDetails } from "../../features/content/components/contact-details";

export function ContactRoute() {
  usePageTitle("Contact", "PartsWorks' address, returns address, phone, email and opening hours.");
  return (
    <div className="mx-auto max-w-4xl px-4 py-10">
      <h1 className="mb-2 text-3xl font-bold">Contact</h1>
      <p className="mb-8 text-base-content/70">
        Where to find us, where to send returned parts, and when we answer.
      </p>
      <ContactDetails />
    </div>
  );
}
