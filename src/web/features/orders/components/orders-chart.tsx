import { useEffect, useRef } from "react";
import uPlot from "uplot";
import "uplot/dist/uPlot.min.css";
import { dayWords, MONTHS } from "#contract/calendar";
import type { OrdersOverview } from "#contract/orders";

/** A day on the chart (seconds at its UTC midnight) as the store writes days: "12 Jan 2027". */
const dayAt = (ts: number) => dayWords(new Date(ts * 1000).toISOString().slice(0, 10));
/** An axis tick: the day and month ("12 Jan"); the legend says the year. */
const tickAt = (ts: number) => {
  const d = new Date(ts * 1000);
  return `${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]}`;
};

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
        scales: {
          x: { time: true },
          // Whole orders only: from 0 to at least 1, so one order is not drawn as a full scale.
          orders: { range: (_u, _min, max) => [0, Math.max(1, Math.ceil(max))] },
          revenue: { auto: true },
        },
        axes: [
          { values: (_u, splits) => splits.map(tickAt) },
          {
            scale: "orders",
            label: "Orders",
            incrs: [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000],
            values: (_u, splits) => splits.map((v) => (Number.isInteger(v) ? String(v) : "")),
          },
          { scale: "revenue", side: 1, label: `Revenue (${currency})`, grid: { show: false } },
        ],
        series: [
          { value: (_u, ts) => (ts == null ? "--" : dayAt(ts)) },
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
    // uPlot follows the mouse only: a finger on the chart moves its cursor (and legend) too;
    // sideways slides stay with the chart, up and down still scroll the page.
    chart.over.style.touchAction = "pan-y";
    const touch = (e: PointerEvent) => {
      if (e.pointerType === "mouse") return;
      const r = chart.over.getBoundingClientRect();
      chart.setCursor({ left: e.clientX - r.left, top: e.clientY - r.top });
    };
    chart.over.addEventListener("pointerdown", touch);
    chart.over.addEventListener("pointermove", touch);
    return () => {
      chart.over.removeEventListener("pointerdown", touch);
      chart.over.removeEventListener("pointermove", touch);
      resize.disconnect();
      chart.destroy();
    };
  }, [days, currency]);
  return (
    // As tall as its spinner while this code loads (orders-overview.tsx): the chart and its legend
    // (one or two lines) fit, so the orders below do not move when it arrives.
    <figure className="min-h-[19rem]">
      <div
        ref={box}
        className="w-full"
        role="img"
        aria-label="Orders and revenue per day, last 30 days"
      />
    </figure>
  );
}
