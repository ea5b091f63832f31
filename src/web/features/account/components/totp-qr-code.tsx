import { encode } from "uqr";

/**
 * The authenticator app's setup link as a QR code, drawn as one SVG path (no inline markup, so the
 * page's CSP needs nothing extra). Loaded only when someone turns two-factor authentication on.
 */
export default function TotpQrCode({ uri }: { uri: string }) {
  const { data, size } = encode(uri, { border: 2 });
  let path = "";
  data.forEach((row, y) =>
    row.forEach((dark, x) => {
      if (dark) path += `M${x} ${y}h1v1h-1z`;
    }),
  );
  return (
    <svg
      role="img"
      aria-label="QR code to scan with your authenticator app"
      viewBox={`0 0 ${size} ${size}`}
      width="192"
      height="192"
      shapeRendering="crispEdges"
      className="rounded bg-white"
      data-testid="totp-qr"
    >
      <path d={path} fill="#000" />
    </svg>
  );
}
