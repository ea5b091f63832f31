import { useId, type InputHTMLAttributes } from "react";
import { MAX_LIST_NAME } from "#contract/lists";

/** A text box with its label above it, in the lists' one-line forms (a list's name, a part number). */
export function LabelledInput({
  label,
  value,
  onChange: change,
  ...input
}: {
  label: string;
  value: string;
  onChange(typed: string): void;
} & Omit<InputHTMLAttributes<HTMLInputElement>, "id" | "value" | "onChange">) {
  const id = useId();
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="text-sm font-semibold">
        {label}
      </label>
      <input id={id} {...input} value={value} onChange={(e) => change(e.target.value)} />
    </div>
  );
}

/** A list's name as typed (at most MAX_LIST_NAME characters): the new list's, or a rename. */
export function ListNameInput(props: {
  label: string;
  value: string;
  onChange(typed: string): void;
  placeholder?: string;
}) {
  return <LabelledInput className="input w-72 max-w-full" maxLength={MAX_LIST_NAME} {...props} />;
}
