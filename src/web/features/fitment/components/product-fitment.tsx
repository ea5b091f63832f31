import { fitDetailWords, fitWords, type VehicleChoice } from "../../../lib/vehicle-choice";
import type { ProductFitment } from "#contract/vehicles";
import { useProductFitment } from "../api/fitment";

/** On the product page: whether it fits the shopper's vehicle, and every vehicle it fits. */
export function ProductFitment({
  productId,
  vehicle,
  known,
}: {
  productId: string;
  vehicle: VehicleChoice | undefined;
  /** The vehicles it fits, when the page has them already (the part page). */
  known?: ProductFitment["applications"];
}) {
  const { data, error } = useProductFitment(productId, vehicle, known);
  if (error || !data) return null;
  const details = data.fit?.details.map(fitDetailWords).filter(Boolean) ?? [];
  return (
    <>
      {data.fit && data.vehicle && (
        <p
          role="status"
          data-testid="fit"
          className={`alert ${data.fit.fits ? "alert-success" : "alert-warning"} alert-soft block`}
        >
          <span className="font-semibold">{fitWords(data.fit.fits, data.vehicle.label)}</span>
          {details.map((d) => (
            <span key={d} className="block text-sm">
              {d}
            </span>
          ))}
        </p>
      )}
      <section aria-labelledby="fits-vehicles">
        <h2 id="fits-vehicles" className="mb-2 text-lg font-semibold">
          Fits these vehicles
        </h2>
        {data.applications.length === 0 ? (
          <p className="text-sm text-base-content/70">No vehicles are listed for this part yet.</p>
        ) : (
          <ul className="flex flex-col gap-2" data-testid="fits-vehicles">
            {data.applications.map((a) => (
              <li key={`${a.make} ${a.model}`}>
                <span className="font-medium">
                  {a.make} {a.model}
                </span>
                <ul className="ml-4 text-sm text-base-content/80">
                  {a.rows.map((r) => {
                    const words = fitDetailWords({ ...r, quantity: r.quantity });
                    return (
                      <li key={`${r.years} ${words}`}>
                        {r.years}
                        {words ? ` · ${words}` : ""}
                      </li>
                    );
                  })}
                </ul>
              </li>
            ))}
          </ul>
        )}
      </section>
    </>
  );
}
