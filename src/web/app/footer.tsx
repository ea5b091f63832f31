import { Link } from "../components/link";
import { paths } from "#contract/paths";

export function Footer() {
  return (
    <footer className="bg-neutral text-neutral-content">
      <div className="mx-auto grid max-w-6xl gap-8 px-4 py-10 sm:grid-cols-3">
        <div>
          <p className="text-lg font-bold">PartsWorks</p>
          <p className="mt-2 text-sm opacity-80">
            Car spare parts made in our own plant and sold straight to garages, fleets and
            distributors.
          </p>
        </div>
        <nav aria-label="Footer" className="flex flex-col gap-1 text-sm">
          <p className="font-semibold">Store</p>
          <Link className="link-hover link" to={paths.allProducts}>
            All products
          </Link>
          <Link className="link-hover link" to={paths.review}>
            Reviews
          </Link>
          <Link className="link-hover link" to={paths.blogs}>
            Blogs
          </Link>
        </nav>
        <div className="text-sm opacity-80">
          <p className="font-semibold opacity-100">Contact</p>
          <p>sales@partsworks.example</p>
          <p>Mon–Fri, 8:00–18:00</p>
          <Link className="link-hover link opacity-100" to={paths.contact}>
            Address, returns and phone
          </Link>
        </div>
      </div>
      <p className="border-t border-white/10 py-4 text-center text-sm opacity-80">
        Copyright © 2022 PartsWorks. All rights reserved.
      </p>
    </footer>
  );
}
