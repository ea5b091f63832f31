interface QuantitySelectorProps {
  value: number;
  onChange(value: number): void;
  /** The id of the text that says the limits (minimum, stock), read with the number. */
  describedBy?: string;
}

/** Starts at 0; + adds 1; - subtracts 1 but never below 0; the number can also be typed. */
export function QuantitySelector({ value, onChange, describedBy }: QuantitySelectorProps) {
  return (
    <div className="join" role="group" aria-label="Quantity">
      <button
        type="button"
        className="btn join-item"
        aria-label="Decrease quantity"
        onClick={() => onChange(Math.max(0, value - 1))}
      >
        −
      </button>
      <input
        type="number"
        inputMode="numeric"
        min={0}
        step={1}
        className="input join-item w-28 text-center"
        aria-label="Quantity"
        aria-describedby={describedBy}
        value={value}
        onChange={(e) => {
          const n = Math.floor(Number(e.target.value));
          onChange(Number.isFinite(n) && n > 0 ? n : 0);
        }}
      />
      <button
        type="button"
        className="btn join-item"
        aria-label="Increase quantity"
        onClick={() => onChange(value + 1)}
      >
        +
      </button>
    </div>
  );
}
