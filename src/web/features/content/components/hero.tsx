import { Link } from "../../../components/link";

export function Hero({ getStartedTo }: { getStartedTo: string }) {
  return (
    <section className="relative overflow-hidden bg-primary text-primary-content">
      <img
        src="/images/hero.svg"
        alt=""
        width="1200"
        height="600"
        fetchPriority="high"
        className="absolute inset-0 h-full w-full object-cover opacity-25"
      />
      <div className="relative mx-auto flex max-w-6xl flex-col items-start gap-6 px-4 py-24 md:py-32">
        <p className="badge badge-accent">Made in our own plant since 1998</p>
        <h1 className="max-w-2xl text-4xl font-extrabold leading-tight md:text-5xl">
          Car spare parts, straight from the manufacturer
        </h1>
        <p className="max-w-xl text-lg opacity-90">
          Brakes, filters, ignition, cooling and drivetrain parts for garages, fleets and
          distributors — with factory warranty and wholesale pricing.
        </p>
        <Link to={getStartedTo} className="btn btn-secondary btn-lg">
          Get Started
        </Link>
      </div>
    </section>
  );
}
