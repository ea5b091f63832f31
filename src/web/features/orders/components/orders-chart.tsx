import { useEffect, useRef } from "react";
import uPlot from "uplot";
import "uplot/dist/uPlot.min.css";
import type { OrdersOverview } from "#contract/orders";

/** Orders (bars) and revenue (line) per day, drawn by uPlot (a small canvas chart library). */
export function OrdersChart({ days, currency }: Pick<OrdersOverview, "days" | "currency">) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const x = days.map((d) => Date.parse(`${d.date}T00:00:00Z`) / 1000);
    const chart = new uPlot(
      {
        width: el.clientWidth || 600,
        height: 240,
        tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), "Etc/UTC"),
        scales: { x: { time: true }, orders: { auto: true }, revenue: { auto: true } },
        axes: [
          {},
          { scale: "orders", label: "Orders" },
          { scale: "revenue", side: 1, label: `Revenue (${currency})`, grid: { show: false } },
        ],
        series: [
          {},
          {
            label: "Orders",
            scale: "orders",
            stroke: "#1e3a5f",
            fill: "rgba(30, 58, 95, 0.35)",
            paths: uPlot.paths.bars!({ size: [0.6, 24] }),
          },
          { label: "Revenue", scale: "revenue", stroke: "#d9541e", width: 2 },
        ],
      },
      [x, days.map((d) => d.orders), days.map((d) => d.revenue)],
      el,
    );
    const resize = new ResizeObserver(() => chart.setSize({ width: el.clientWidth, height: 240 }));
    resize.observe(el);
    return () => {
      resize.disconnect();
      chart.destroy();
    };
  }, [days, currency]);
  return (
    <figure>
      <div
        ref={box}
        className="w-full"
        role="img"
        aria-label="Orders and revenue per day, last 30 days"
      />
      <figcaption className="sr-only">
        {days.map((d) => `${d.date}: ${d.orders} orders, ${d.revenue} ${currency}`).join("; ")}
      </figcaption>
    </figure>
  );
}
