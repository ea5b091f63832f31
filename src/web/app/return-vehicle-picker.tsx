import { useState } from "react";
import type { Vehicle } from "#contract/vehicles";
import { useGarage } from "../features/fitment/api/fitment";
import { VehicleSelector } from "../features/fitment/components/vehicle-selector";
import { apiGet, toQueryString } from "../lib/api-client";
import type { VehicleChoice } from "../lib/vehicle-choice";

export interface VehiclePickerProps {
  /** The vehicle picked, with the catalog's name for it. */
  onPick(choice: VehicleChoice, label: string): void;
}

/**
 * A "did not fit" return's vehicle (composed here: the returns and fitment features do not import
 * each other): the customer's My garage at one click, or any vehicle through the selector.
 */
export function ReturnVehiclePicker({ onPick }: VehiclePickerProps) {
  const garage = useGarage(true);
  const [choosing, setChoosing] = useState(false);
  const [failed, setFailed] = useState(false);
  // The selector gives the catalog's ids; the return shows the vehicle by the catalog's name.
  const choose = async (v: VehicleChoice) => {
    setFailed(false);
    try {
      const named = await apiGet<Vehicle>(`/vehicles/vehicle${toQueryString({ ...v })}`);
      onPick(v, named.label);
      setChoosing(false);
    } catch {
      setFailed(true);
    }
  };
  const saved = garage.data ?? [];
  return (
    <div className="flex flex-col gap-2">
      {saved.length > 0 && (
        <div className="flex flex-col gap-1">
          <span className="text-sm">From My garage:</span>
          <ul className="flex flex-wrap gap-2" data-testid="return-garage">
            {saved.map((v) => (
              <li key={v.id}>
                <button
                  type="button"
                  className="btn btn-outline btn-sm"
                  onClick={() =>
                    onPick(
                      {
                        year: v.year,
                        make: v.make.id,
                        model: v.model.id,
                        ...(v.engine && { engine: v.engine.id }),
                      },
                      v.label,
                    )
                  }
                >
                  {v.label}
                </button>
              </li>
            ))}
          </ul>
        </div>
      )}
      {choosing ? (
        <VehicleSelector onChoose={(v) => void choose(v)} submitLabel="Use this vehicle" />
      ) : (
        <button
          type="button"
          className="btn btn-link btn-sm self-start px-0"
          onClick={() => setChoosing(true)}
        >
          {saved.length > 0 ? "Another vehicle: year, make, model" : "Choose year, make and model"}
        </button>
      )}
      {failed && (
        <p role="alert" className="text-sm text-error">
          This vehicle could not be named; choose it again.
        </p>
      )}
    </div>
  );
}
