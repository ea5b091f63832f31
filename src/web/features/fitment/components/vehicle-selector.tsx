import { useId, useState, type FormEvent } from "react";
import { ApiError } from "../../../lib/api-client";
import { usePrerendering } from "../../../lib/prerendering";
import { useSession } from "../../../lib/session";
import type { VehicleChoice } from "../../../lib/vehicle-choice";
import {
  decodeVin,
  useEngines,
  useGarage,
  useGarageChange,
  useMakes,
  useModels,
  useYears,
} from "../api/fitment";
import { ChoiceSelect } from "./choice-options";

const toNumber = (s: string) => (s ? Number(s) : undefined);

interface SelectorProps {
  value?: VehicleChoice;
  onChoose: (v: VehicleChoice) => void;
  onClear?: () => void;
  submitLabel?: string;
}

/**
 * Year, Make, Model, then Engine when the model has more than one; a VIN box that fills in the
 * year and make it can tell; and, for a signed-in customer, My garage.
 */
export function VehicleSelector(props: SelectorProps) {
  // A new value from outside (the URL, the garage) starts the form afresh.
  const v = props.value;
  return <SelectorForm key={v ? `${v.year}-${v.make}-${v.model}-${v.engine}` : ""} {...props} />;
}

function SelectorForm({
  value,
  onChoose,
  onClear,
  submitLabel = "Show parts that fit",
}: SelectorProps) {
  const id = useId();
  // In the pre-rendered HTML nothing works yet: disabled, so nothing chosen is lost.
  const prerendering = usePrerendering();
  const [year, setYear] = useState(value?.year);
  const [make, setMake] = useState(value?.make);
  const [model, setModel] = useState(value?.model);
  const [engine, setEngine] = useState(value?.engine);
  const years = useYears();
  const makes = useMakes(year);
  const models = useModels(year, make);
  const engines = useEngines(year, make, model);
  const engineMatters = (engines.data?.length ?? 0) > 1;
  const complete = year !== undefined && make !== undefined && model !== undefined;
  const chosen: VehicleChoice | undefined = complete
    ? { year, make, model, ...(engineMatters && engine !== undefined && { engine }) }
    : undefined;

  /** Year, make and model, in the order chosen. */
  const steps = [
    { label: "Year", value: year, set: setYear, choices: years.data },
    { label: "Make", value: make, set: setMake, choices: makes.data },
    { label: "Model", value: model, set: setModel, choices: models.data },
  ];

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (chosen) onChoose(chosen);
  };
  return (
    <div
      className="rounded-box border border-base-300 bg-base-100 p-4"
      data-testid="vehicle-selector"
    >
      <form onSubmit={submit} aria-label="Find parts for your vehicle">
        <fieldset disabled={prerendering} className="contents">
          <div className="grid grid-cols-2 gap-3 md:grid-cols-[repeat(4,minmax(0,1fr))_auto]">
            {steps.map((step, i) => (
              <ChoiceSelect
                key={step.label}
                id={`${id}-${step.label.toLowerCase()}`}
                label={step.label}
                value={step.value ?? ""}
                disabled={!step.choices}
                onChange={(e) => {
                  step.set(toNumber(e.target.value));
                  // The choices after it depend on it: they start again.
                  for (const later of steps.slice(i + 1)) later.set(undefined);
                  setEngine(undefined);
                }}
                empty={step.label}
                choices={step.choices}
              />
            ))}
            {engineMatters ? (
              <ChoiceSelect
                id={`${id}-engine`}
                label="Engine"
                value={engine ?? ""}
                onChange={(e) => setEngine(toNumber(e.target.value))}
                empty="All engines"
                choices={engines.data}
              />
            ) : (
              <div className="hidden md:block" />
            )}
            <div className="col-span-2 flex flex-wrap items-end gap-2 md:col-span-1">
              <button type="submit" className="btn btn-primary" disabled={!chosen}>
                {submitLabel}
              </button>
              {onClear && value && (
                <button type="button" className="btn btn-ghost" onClick={onClear}>
                  Clear vehicle
                </button>
              )}
            </div>
          </div>
        </fieldset>
      </form>
      <VinBox
        disabled={prerendering}
        onDecoded={(y, m) => {
          if (y !== undefined && years.data?.includes(y)) {
            setYear(y);
            setMake(m);
          } else if (m !== undefined && year !== undefined) {
            setMake(m);
          }
          setModel(undefined);
          setEngine(undefined);
        }}
      />
      <Garage current={chosen} onPick={onChoose} />
    </div>
  );
}

/** Checks a VIN on the server and fills in what it tells. */
function VinBox({
  onDecoded,
  disabled,
}: {
  onDecoded: (year?: number, make?: number) => void;
  disabled: boolean;
}) {
  const id = useId();
  const [vin, setVin] = useState("");
  const [result, setResult] = useState<{ ok: boolean; lines: string[] }>();
  const [busy, setBusy] = useState(false);
  const check = async (e: FormEvent) => {
    e.preventDefault();
    if (!vin.trim()) return;
    setBusy(true);
    try {
      const r = await decodeVin(vin.trim());
      setResult({ ok: true, lines: r.notes });
      onDecoded(r.year ?? undefined, r.make?.id);
    } catch (err) {
      setResult({
        ok: false,
        lines: [err instanceof ApiError ? err.message : "The VIN could not be checked; try again"],
      });
    } finally {
      setBusy(false);
    }
  };
  return (
    <details className="mt-3" open={result !== undefined}>
      <summary className="cursor-pointer text-sm font-medium">Have a VIN? Check it</summary>
      <form
        onSubmit={check}
        className="mt-2 flex flex-wrap items-end gap-2"
        aria-label="Check a VIN"
      >
        <fieldset disabled={disabled} className="contents">
          <label htmlFor={`${id}-vin`} className="flex min-w-0 flex-1 flex-col gap-1">
            <span className="text-sm font-medium">VIN</span>
            <input
              id={`${id}-vin`}
              className="input input-bordered w-full font-mono uppercase placeholder:normal-case"
              value={vin}
              maxLength={20}
              autoComplete="off"
              spellCheck={false}
              placeholder="17 characters"
              onChange={(e) => setVin(e.target.value)}
            />
          </label>
          <button type="submit" className="btn" disabled={busy}>
            Check VIN
          </button>
        </fieldset>
        {result && (
          <ul
            role="status"
            className={`w-full text-sm ${result.ok ? "text-base-content/80" : "text-error"}`}
            data-testid="vin-result"
          >
            {result.lines.map((l) => (
              <li key={l}>{l}</li>
            ))}
          </ul>
        )}
      </form>
    </details>
  );
}

/** A signed-in customer's saved vehicles: pick one with a click, save the current one, remove. */
function Garage({
  current,
  onPick,
}: {
  current: VehicleChoice | undefined;
  onPick: (v: VehicleChoice) => void;
}) {
  const { data: user } = useSession();
  const customer = Boolean(user && user.role !== "admin");
  const garage = useGarage(customer);
  const { save, remove } = useGarageChange();
  if (!customer) return null;
  const saved = garage.data ?? [];
  const alreadySaved = saved.some(
    (v) =>
      current &&
      v.year === current.year &&
      v.model.id === current.model &&
      v.engine?.id === current.engine,
  );
  const error = save.error ?? remove.error;
  return (
    <section aria-labelledby="garage-heading" className="mt-4 border-t border-base-300 pt-3">
      <h2 id="garage-heading" className="text-sm font-semibold">
        My garage
      </h2>
      {saved.length === 0 && <p className="text-sm text-base-content/70">No saved vehicles yet.</p>}
      <ul className="mt-2 flex flex-wrap gap-2" data-testid="garage">
        {saved.map((v) => (
          <li key={v.id} className="join">
            <button
              type="button"
              className="btn join-item btn-sm"
              onClick={() =>
                onPick({
                  year: v.year,
                  make: v.make.id,
                  model: v.model.id,
                  ...(v.engine && { engine: v.engine.id }),
                })
              }
            >
              {v.label}
            </button>
            <button
              type="button"
              className="btn join-item btn-ghost btn-sm"
              aria-label={`Remove ${v.label} from My garage`}
              disabled={remove.isPending}
              onClick={() => remove.mutate(v.id)}
            >
              ✕
            </button>
          </li>
        ))}
      </ul>
      {current && !alreadySaved && (
        <button
          type="button"
          className="btn btn-link btn-sm px-0"
          disabled={save.isPending}
          onClick={() => save.mutate(current)}
        >
          Save this vehicle in My garage
        </button>
      )}
      {error && (
        <p role="alert" className="text-sm text-error">
          {error instanceof ApiError ? error.message : "My garage could not be changed; try again"}
        </p>
      )}
    </section>
  );
}
