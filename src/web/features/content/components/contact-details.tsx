import type { ReactNode } from "react";
import { PageSpinner } from "../../../components/spinner";
import { QueryError } from "../../../components/query-error";
import { useContact } from "../api/contact";

function Block({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="rounded-box border border-base-300 bg-base-100 p-5">
      <h2 className="mb-2 text-lg font-semibold">{title}</h2>
      {children}
    </section>
  );
}

const Lines = ({ lines }: { lines: string[] }) => (
  <address className="not-italic">
    {lines.map((l) => (
      <span key={l} className="block">
        {l}
      </span>
    ))}
  </address>
);

/** The store's address, returns address, phone, email and opening hours, as configured. */
export function ContactDetails() {
  const { data, error, isPending } = useContact();
  if (isPending) return <PageSpinner />;
  if (error) return <QueryError error={error} />;
  return (
    <div className="grid gap-4 md:grid-cols-2" data-testid="contact-details">
      <Block title="Our address">
        <p className="font-medium">{data.name}</p>
        {data.address.length > 0 ? (
          <Lines lines={data.address} />
        ) : (
          <p className="text-base-content/75">Not published yet.</p>
        )}
      </Block>
      <Block title="Returns address">
        {data.returnsAddress.length > 0 ? (
          <Lines lines={data.returnsAddress} />
        ) : (
          <p className="text-base-content/75">Not published yet.</p>
        )}
        <p className="mt-2 text-sm text-base-content/80">
          Send parts back only once we approved your return, with its RMA number (RMA-…) on the
          parcel and on a note inside.
        </p>
      </Block>
      <Block title="Phone and email">
        {data.phone && (
          <p>
            Phone:{" "}
            <a className="link" href={`tel:${data.phone.replace(/[^+\d]/g, "")}`}>
              {data.phone}
            </a>
          </p>
        )}
        {data.email && (
          <p className="break-all">
            Email:{" "}
            <a className="link" href={`mailto:${data.email}`}>
              {data.email}
            </a>
          </p>
        )}
        {!data.phone && !data.email && <p className="text-base-content/75">Not published yet.</p>}
      </Block>
      <Block title="Opening hours">
        {data.hours.length > 0 ? (
          <Lines lines={data.hours} />
        ) : (
          <p className="text-base-content/75">Not published yet.</p>
        )}
      </Block>
    </div>
  );
}
