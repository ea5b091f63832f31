import { Link } from "../../../components/link";

export function NotFound({ what = "page" }: { what?: "page" | "product" }) {
  return (
    <div className="mx-auto flex max-w-2xl flex-col items-center gap-6 px-4 py-16 text-center">
      <img
        src="/images/not-found.svg"
        alt="Not found"
        width="600"
        height="400"
        className="w-full"
      />
      <h1 className="text-3xl font-bold">
        {what === "product" ? "This product does not exist" : "Page not found"}
      </h1>
      <p className="text-base-content/70">
        The link may be broken, or the {what} may have been removed.
      </p>
      <Link to="/" className="btn btn-primary">
        Back to the home page
      </Link>
    </div>
  );
}
