import { useId, useState, type ReactNode } from "react";
import { notify } from "../lib/notify";

/** What an all-or-nothing CSV upload answers: whether it applied, its rows, and its problems. */
interface CsvUploadAnswer {
  applied: boolean;
  rows: number;
  errors: { line: number; column?: string; message: string }[];
}

/**
 * An all-or-nothing CSV upload in one step (production lots, incoming supply): the file, the
 * button, and a file with problems listed with their lines ("Nothing was set: the file has a
 * problem."); `applied` says what an applied file did.
 */
export function CsvUploadForm<A extends CsvUploadAnswer>(props: {
  /** The form's accessible name. */
  label: string;
  /** What the file holds: its columns and an example. */
  children: ReactNode;
  buttonLabel: string;
  /** "set", "entered": what nothing was, when the file has problems. */
  nothingWas: string;
  upload: (file: File) => Promise<A>;
  pending: boolean;
  /** The words of an applied file (notified). */
  applied: (answer: A) => string;
  className?: string;
}) {
  const id = useId();
  const [file, setFile] = useState<File>();
  const [answer, setAnswer] = useState<A>();
  return (
    <form
      className={props.className ?? "flex flex-col gap-3"}
      aria-label={props.label}
      onSubmit={async (e) => {
        e.preventDefault();
        if (!file) return;
        try {
          const result = await props.upload(file);
          setAnswer(result);
          if (result.applied) notify.success(props.applied(result));
        } catch (err) {
          notify.error((err as Error).message);
        }
      }}
    >
      {props.children}
      <div className="flex flex-wrap items-end gap-3">
        <div className="flex flex-col gap-1">
          <label htmlFor={id} className="text-sm font-medium">
            CSV file
          </label>
          <input
            id={id}
            type="file"
            accept=".csv,text/csv"
            className="file-input file-input-bordered w-full max-w-xs"
            onChange={(e) => {
              setFile(e.target.files?.[0]);
              setAnswer(undefined);
            }}
          />
        </div>
        <button type="submit" className="btn btn-primary" disabled={!file || props.pending}>
          {props.buttonLabel}
        </button>
      </div>
      {answer && !answer.applied && (
        <div role="alert" className="text-sm text-error">
          <p>
            Nothing was {props.nothingWas}: the file has{" "}
            {answer.errors.length === 1 ? "a problem" : "problems"}.
          </p>
          <ul className="list-disc pl-5">
            {answer.errors.map((e, i) => (
              <li key={i}>
                Line {e.line}
                {e.column && ` (${e.column})`}: {e.message}
              </li>
            ))}
          </ul>
        </div>
      )}
    </form>
  );
}
