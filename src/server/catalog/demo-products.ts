import type { CrossReferenceKind, ProductCategory } from "../../contract/constants";

export interface DemoCrossReference {
  kind: CrossReferenceKind;
  brand: string;
  number: string;
}

export interface DemoProduct {
  slug: string;
  name: string;
  /** Our part number. */
  partNumber: string;
  category: ProductCategory;
  /** The numbers it replaces, written for the demo (plausible formats, not a copied list). */
  crossReferences: DemoCrossReference[];
  priceCents: number;
  minimumOrder: number;
  availableQuantity: number;
  shortDescription: string;
  warrantyMonths: number;
}

export const demoProducts: DemoProduct[] = [
  {
    slug: "brake-disc-kit",
    partNumber: "PW-BK-3001",
    category: "Brakes",
    crossReferences: [
      { kind: "OE", brand: "Toyota", number: "04465-02220" },
      { kind: "OE", brand: "Toyota", number: "43512-02230" },
      { kind: "OE", brand: "Volkswagen", number: "5Q0 615 301 G" },
      { kind: "competitor", brand: "Brembo", number: "09.C412.21" },
      { kind: "superseded", brand: "PartsWorks", number: "PW-BK-2990" },
    ],
    name: "Ventilated Brake Disc & Caliper Kit",
    priceCents: 12950,
    minimumOrder: 2,
    availableQuantity: 640,
    shortDescription:
      "Two 300 mm ventilated discs in G3000 grey cast iron, a set of low-dust ceramic brake pads and a reconditioned single-piston caliper, tested to UN ECE R90. Front-axle fit for listed C- and D-segment cars.",
    warrantyMonths: 24,
  },
  {
    slug: "oil-filter",
    partNumber: "PW-FL-1104",
    category: "Filters",
    crossReferences: [
      { kind: "OE", brand: "Volkswagen", number: "06J 115 403 Q" },
      { kind: "OE", brand: "Toyota", number: "90915-YZZE1" },
      { kind: "competitor", brand: "Mann-Filter", number: "W 712/95" },
      { kind: "competitor", brand: "Bosch", number: "0 451 103 316" },
    ],
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
    partNumber: "PW-IG-2206",
    category: "Ignition",
    crossReferences: [
      { kind: "OE", brand: "Volkswagen", number: "101 905 631 H" },
      { kind: "OE", brand: "Toyota", number: "90919-01275" },
      { kind: "competitor", brand: "NGK", number: "ILZKR7B-11S" },
      { kind: "competitor", brand: "Denso", number: "IK20TT" },
    ],
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
    partNumber: "PW-EL-4120",
    category: "Electrical",
    crossReferences: [
      { kind: "OE", brand: "Ford", number: "AV6N-10300-GC" },
      { kind: "OE", brand: "Volkswagen", number: "03L 903 023 F" },
      { kind: "competitor", brand: "Bosch", number: "0 124 525 140" },
    ],
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
    partNumber: "PW-CO-5210",
    category: "Cooling",
    crossReferences: [
      { kind: "OE", brand: "Toyota", number: "16400-0T041" },
      { kind: "OE", brand: "Volkswagen", number: "5Q0 121 251 GD" },
      { kind: "competitor", brand: "Nissens", number: "65310A" },
    ],
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
    partNumber: "PW-SU-6302",
    category: "Suspension",
    crossReferences: [
      { kind: "OE", brand: "Volkswagen", number: "1K0 513 029 JK" },
      { kind: "OE", brand: "Ford", number: "BV61-18080-AAE" },
      { kind: "competitor", brand: "Monroe", number: "G1184" },
      { kind: "competitor", brand: "Sachs", number: "313 946" },
    ],
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
    partNumber: "PW-EN-7014",
    category: "Engine",
    crossReferences: [
      { kind: "OE", brand: "Volkswagen", number: "04E 198 119 B" },
      { kind: "competitor", brand: "Gates", number: "K015689XS" },
      { kind: "superseded", brand: "PartsWorks", number: "PW-EN-7010" },
    ],
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
    partNumber: "PW-CL-8230",
    category: "Clutch",
    crossReferences: [
      { kind: "OE", brand: "Ford", number: "AV61-7540-BC" },
      { kind: "OE", brand: "Volkswagen", number: "0A5 141 015 K" },
      { kind: "competitor", brand: "LuK", number: "624 3471 09" },
    ],
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
    partNumber: "PW-FU-9110",
    category: "Fuel",
    crossReferences: [
      { kind: "OE", brand: "Honda", number: "17040-T5R-A02" },
      { kind: "OE", brand: "Toyota", number: "23221-21071" },
      { kind: "competitor", brand: "Bosch", number: "0 580 200 319" },
    ],
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
    partNumber: "PW-LT-9302",
    category: "Lighting",
    crossReferences: [
      { kind: "OE", brand: "Volkswagen", number: "5G1 941 081 D" },
      { kind: "OE", brand: "Ford", number: "JX7B-13W030-AE" },
      { kind: "competitor", brand: "Hella", number: "1EX 013 925-421" },
    ],
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
    partNumber: "PW-FL-1210",
    category: "Filters",
    crossReferences: [
      { kind: "OE", brand: "Volkswagen", number: "04E 129 620 D" },
      { kind: "OE", brand: "Toyota", number: "17801-21060" },
      { kind: "competitor", brand: "Mann-Filter", number: "C 27 014" },
      { kind: "competitor", brand: "Bosch", number: "F 026 400 439" },
    ],
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
    partNumber: "PW-CO-5402",
    category: "Cooling",
    crossReferences: [
      { kind: "OE", brand: "Volkswagen", number: "03C 121 008 K" },
      { kind: "competitor", brand: "SKF", number: "VKPC 81236" },
      { kind: "superseded", brand: "PartsWorks", number: "PW-CO-5400" },
    ],
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
    partNumber: "PW-SU-6510",
    category: "Suspension",
    crossReferences: [
      { kind: "OE", brand: "Honda", number: "44300-T2A-A52" },
      { kind: "OE", brand: "Toyota", number: "43550-0D020" },
      { kind: "competitor", brand: "SKF", number: "VKBA 7081" },
    ],
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
    partNumber: "PW-WP-1060",
    category: "Wipers",
    crossReferences: [
      { kind: "OE", brand: "Volkswagen", number: "5G1 998 002 B" },
      { kind: "competitor", brand: "Bosch", number: "3 397 007 297" },
      { kind: "superseded", brand: "PartsWorks", number: "PW-WP-1050" },
    ],
    name: "Flat Beam Wiper Blade Set",
    priceCents: 1590,
    minimumOrder: 10,
    availableQuantity: 2200,
    shortDescription:
      "Pair of frameless 600 mm and 400 mm blades with graphite-coated natural rubber on a spring-steel beam. Multi-adapter clip fits hook, side-pin and push-button arms.",
    warrantyMonths: 12,
  },
];

/** A demo category's attribute (docs/attributes.md), in the order listed. */
export interface DemoAttributeDefinition {
  name: string;
  kind: "number" | "text" | "choice";
  unit?: string;
  choices?: string[];
}

/** The demo categories' attributes: what a buyer compares parts of the category by. */
export const demoAttributeDefinitions: Partial<Record<ProductCategory, DemoAttributeDefinition[]>> =
  {
    Brakes: [
      { name: "Diameter", kind: "number", unit: "mm" },
      { name: "Thickness", kind: "number", unit: "mm" },
      { name: "Vent type", kind: "choice", choices: ["Solid", "Vented"] },
      { name: "Axle", kind: "choice", choices: ["Front", "Rear"] },
    ],
    Filters: [
      { name: "Filter type", kind: "choice", choices: ["Oil", "Air", "Fuel", "Cabin"] },
      { name: "Height", kind: "number", unit: "mm" },
      { name: "Thread", kind: "text" },
    ],
    Ignition: [
      { name: "Thread", kind: "number", unit: "mm" },
      { name: "Heat range", kind: "number" },
      { name: "Electrode", kind: "choice", choices: ["Copper", "Platinum", "Iridium"] },
      { name: "Electrode gap", kind: "number", unit: "mm" },
    ],
    Suspension: [
      { name: "Axle", kind: "choice", choices: ["Front", "Rear"] },
      { name: "Construction", kind: "text" },
    ],
    Cooling: [{ name: "Material", kind: "text" }],
    Electrical: [
      { name: "Voltage", kind: "number", unit: "V" },
      { name: "Output", kind: "number", unit: "A" },
    ],
    Wipers: [
      { name: "Driver side length", kind: "number", unit: "mm" },
      { name: "Passenger side length", kind: "number", unit: "mm" },
      { name: "Blade type", kind: "choice", choices: ["Conventional", "Flat", "Hybrid"] },
    ],
  };

/** The demo parts' values by part number, by attribute name (the descriptions' facts). */
export const demoAttributeValues: Record<string, Record<string, string>> = {
  "PW-BK-3001": { Diameter: "300", Thickness: "25", "Vent type": "Vented", Axle: "Front" },
  "PW-FL-1104": { "Filter type": "Oil", Height: "79", Thread: "3/4-16 UNF" },
  "PW-FL-1210": { "Filter type": "Air", Height: "58" },
  "PW-IG-2206": { Thread: "14", "Heat range": "7", Electrode: "Iridium", "Electrode gap": "0.8" },
  "PW-SU-6302": { Axle: "Rear", Construction: "Twin-tube, low-pressure gas" },
  "PW-SU-6510": { Axle: "Front", Construction: "Third-generation hub unit" },
  "PW-CO-5210": { Material: "Aluminium" },
  "PW-CO-5402": { Material: "Die-cast aluminium" },
  "PW-EL-4120": { Voltage: "12", Output: "120" },
  "PW-WP-1060": {
    "Driver side length": "600",
    "Passenger side length": "400",
    "Blade type": "Flat",
  },
};
