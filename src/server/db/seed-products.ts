export interface DemoProduct {
  slug: string;
  name: string;
  priceCents: number;
  minimumOrder: number;
  availableQuantity: number;
  shortDescription: string;
  warrantyMonths: number;
}

export const demoProducts: DemoProduct[] = [
  {
    slug: "brake-disc-kit",
    name: "Ventilated Brake Disc & Caliper Kit",
    priceCents: 12950,
    minimumOrder: 2,
    availableQuantity: 640,
    shortDescription:
      "Two 300 mm ventilated discs in G3000 grey cast iron with a reconditioned single-piston caliper, tested to UN ECE R90. Front-axle fit for listed C- and D-segment cars.",
    warrantyMonths: 24,
  },
  {
    slug: "oil-filter",
    name: "Spin-On Engine Oil Filter",
    priceCents: 449,
    minimumOrder: 50,
    availableQuantity: 4800,
    shortDescription:
      "Spin-on canister with synthetic-blend media and a silicone anti-drainback valve, tested to ISO 4548-12. Fits 3/4-16 UNF mounting threads on listed petrol and diesel engines.",
    warrantyMonths: 12,
  },
  {
    slug: "iridium-spark-plugs",
    name: "Iridium Spark Plug Set (4 pcs)",
    priceCents: 2399,
    minimumOrder: 10,
    availableQuantity: 2600,
    shortDescription:
      "Four plugs with a 0.6 mm iridium centre electrode and platinum-tipped ground electrode, M14 x 1.25 thread, 16 mm hex. Pre-gapped to 0.8 mm for listed petrol engines.",
    warrantyMonths: 24,
  },
  {
    slug: "alternator-120a",
    name: "120 A Alternator, 12 V",
    priceCents: 15900,
    minimumOrder: 2,
    availableQuantity: 310,
    shortDescription:
      "New 12 V, 120 A alternator with internal voltage regulator and overrunning 6-groove pulley, output-tested to ISO 8854. Bolt-on replacement for listed OE part numbers.",
    warrantyMonths: 24,
  },
  {
    slug: "aluminium-radiator",
    name: "All-Aluminium Cooling Radiator",
    priceCents: 11450,
    minimumOrder: 2,
    availableQuantity: 420,
    shortDescription:
      "Brazed two-row aluminium core with TIG-welded aluminium tanks, leak-tested at 2.0 bar. Direct-fit replacement with OE-position hose necks and mounting pins.",
    warrantyMonths: 36,
  },
  {
    slug: "gas-shock-absorber",
    name: "Twin-Tube Gas Shock Absorber",
    priceCents: 3890,
    minimumOrder: 4,
    availableQuantity: 1100,
    shortDescription:
      "Twin-tube, low-pressure nitrogen damper with a 20 mm hard-chromed piston rod and multi-lip seal, valved to OE ride height. Rear-axle fit; replace in axle pairs.",
    warrantyMonths: 36,
  },
  {
    slug: "timing-belt-kit",
    name: "Timing Belt Kit with Tensioner",
    priceCents: 6490,
    minimumOrder: 3,
    availableQuantity: 760,
    shortDescription:
      "HNBR toothed belt matched to the OE tooth count and profile, supplied with an automatic tensioner and idler pulley. Fit all parts together at the maker's service interval.",
    warrantyMonths: 36,
  },
  {
    slug: "clutch-kit",
    name: "Three-Piece Clutch Kit",
    priceCents: 17900,
    minimumOrder: 2,
    availableQuantity: 280,
    shortDescription:
      "Pressure plate, organic-faced clutch disc and release bearing, balanced as a matched set with torque capacity equal to OE. Includes an alignment tool for listed engines.",
    warrantyMonths: 24,
  },
  {
    slug: "electric-fuel-pump",
    name: "In-Tank Electric Fuel Pump",
    priceCents: 5290,
    minimumOrder: 4,
    availableQuantity: 900,
    shortDescription:
      "12 V turbine-type in-tank pump rated at 110 L/h and 3 bar, suitable for petrol up to E10. Supplied with inlet strainer, seal and harness adapter for listed fuel modules.",
    warrantyMonths: 24,
  },
  {
    slug: "led-headlight",
    name: "LED Projector Headlight Assembly",
    priceCents: 21900,
    minimumOrder: 2,
    availableQuantity: 180,
    shortDescription:
      "Complete headlamp unit with LED projector low and high beam and LED daytime running light, E-marked to UN ECE R112 and R87. Uses the original connector and mounts.",
    warrantyMonths: 36,
  },
  {
    slug: "air-filter",
    name: "Panel Engine Air Filter",
    priceCents: 899,
    minimumOrder: 20,
    availableQuantity: 3400,
    shortDescription:
      "Pleated cellulose-synthetic media in a moulded polyurethane frame, efficiency tested to ISO 5011. Direct fit for the OE airbox; replace every 20,000 to 30,000 km.",
    warrantyMonths: 12,
  },
  {
    slug: "water-pump",
    name: "Engine Water Pump with Gasket",
    priceCents: 4690,
    minimumOrder: 4,
    availableQuantity: 870,
    shortDescription:
      "Die-cast aluminium housing with steel impeller, sealed double-row bearing and ceramic-carbon mechanical seal. Gasket included; replace with the timing belt where belt-driven.",
    warrantyMonths: 24,
  },
  {
    slug: "wheel-bearing-hub",
    name: "Front Wheel Bearing & Hub Assembly",
    priceCents: 6890,
    minimumOrder: 4,
    availableQuantity: 650,
    shortDescription:
      "Third-generation hub unit with a pre-adjusted double-row angular-contact bearing, integrated ABS encoder and five M12 studs. Bolt-on front-axle fit for listed models.",
    warrantyMonths: 36,
  },
  {
    slug: "wiper-blade-set",
    name: "Flat Beam Wiper Blade Set",
    priceCents: 1590,
    minimumOrder: 10,
    availableQuantity: 2200,
    shortDescription:
      "Pair of frameless 600 mm and 400 mm blades with graphite-coated natural rubber on a spring-steel beam. Multi-adapter clip fits hook, side-pin and push-button arms.",
    warrantyMonths: 12,
  },
];
