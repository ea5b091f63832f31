import type { PartAsset } from "#contract/parts";

/** A part's further pictures (https addresses), loaded as they come into view. */
export function PartPictures({ images }: { images: PartAsset[] }) {
  if (images.length === 0) return null;
  return (
    <section aria-labelledby="more-pictures">
      <h2 id="more-pictures" className="mb-2 text-lg font-semibold">
        More pictures
      </h2>
      <ul className="grid grid-cols-2 gap-3 sm:grid-cols-3" data-testid="part-pictures">
        {images.map((i) => (
          <li key={i.url}>
            <img
              src={i.url}
              alt={i.title}
              loading="lazy"
              decoding="async"
              width="200"
              height="150"
              className="h-auto w-full rounded-box border border-base-300 bg-base-200 object-cover"
            />
          </li>
        ))}
      </ul>
    </section>
  );
}

/** A part's documents (installation guides and the like), each a link by its title. */
export function PartDocuments({ documents }: { documents: PartAsset[] }) {
  if (documents.length === 0) return null;
  return (
    <section aria-labelledby="part-documents">
      <h2 id="part-documents" className="mb-2 text-lg font-semibold">
        Documents
      </h2>
      <ul className="flex flex-col gap-1" data-testid="part-documents">
        {documents.map((d) => (
          <li key={d.url}>
            <a
              href={d.url}
              target="_blank"
              rel="noopener noreferrer nofollow"
              className="link link-primary break-words"
            >
              {d.title}
            </a>
          </li>
        ))}
      </ul>
    </section>
  );
}
