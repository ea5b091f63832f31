// Stands in for dashboard pages whose issue has not landed yet; removed as each page is built.
export function ComingSoonRoute() {
  return (
    <div className="rounded-box bg-base-200 p-8 text-center">
      <h1 className="text-2xl font-bold">Coming soon</h1>
      <p className="mt-2 text-base-content/70">This part of the dashboard is being built.</p>
    </div>
  );
}
