import type { ReactNode } from "react";

export function AuthCard({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div className="flex justify-center px-4 py-12">
      <div className="card w-full max-w-md border border-base-300 bg-base-100 shadow-sm">
        <div className="card-body gap-4">
          <h1 className="text-center text-2xl font-bold">{title}</h1>
          {children}
        </div>
      </div>
    </div>
  );
}
