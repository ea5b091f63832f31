// The demo vehicle set and the demo products' fitment, written by hand for this store: plausible
// makes, models, years and engines, not a copy of any licensed or published data set.

export interface DemoModel {
  name: string;
  /** Model years, both ends included. */
  years: [number, number];
  /** Engine names as the selector shows them, e.g. "1.4 TSI". */
  engines: string[];
}

export const demoVehicles: Record<string, DemoModel[]> = {
  Volkswagen: [
    { name: "Golf", years: [2012, 2021], engines: ["1.4 TSI", "2.0 TDI", "1.6 TDI"] },
    { name: "Passat", years: [2011, 2022], engines: ["1.8 TSI", "2.0 TDI"] },
    { name: "Polo", years: [2010, 2021], engines: ["1.0 TSI", "1.2 TSI", "1.6 TDI"] },
    { name: "Tiguan", years: [2012, 2022], engines: ["1.4 TSI", "2.0 TDI"] },
  ],
  Toyota: [
    { name: "Corolla", years: [2012, 2022], engines: ["1.6 Dual VVT-i", "1.8 Hybrid"] },
    { name: "Camry", years: [2012, 2022], engines: ["2.5 Dual VVT-i", "3.5 V6"] },
    { name: "RAV4", years: [2013, 2022], engines: ["2.0 Valvematic", "2.5 Hybrid"] },
    { name: "Yaris", years: [2011, 2020], engines: ["1.0 VVT-i", "1.33 Dual VVT-i"] },
  ],
  Ford: [
    { name: "Focus", years: [2011, 2021], engines: ["1.0 EcoBoost", "1.5 EcoBoost", "2.0 TDCi"] },
    { name: "Fiesta", years: [2010, 2021], engines: ["1.0 EcoBoost", "1.25 Duratec"] },
    { name: "Mondeo", years: [2012, 2021], engines: ["2.0 EcoBoost", "2.0 TDCi"] },
    { name: "Kuga", years: [2013, 2022], engines: ["1.5 EcoBoost", "2.0 TDCi"] },
  ],
  BMW: [
    { name: "3 Series", years: [2012, 2022], engines: ["320i 2.0", "320d 2.0"] },
    { name: "5 Series", years: [2011, 2022], engines: ["520d 2.0", "530i 2.0", "540i 3.0"] },
    { name: "X3", years: [2011, 2022], engines: ["xDrive20d 2.0", "xDrive30i 2.0"] },
  ],
  Honda: [
    { name: "Civic", years: [2012, 2022], engines: ["1.5 VTEC Turbo", "1.8 i-VTEC"] },
    { name: "Accord", years: [2013, 2022], engines: ["2.0 i-VTEC", "2.4 i-VTEC"] },
    { name: "CR-V", years: [2012, 2022], engines: ["1.5 VTEC Turbo", "2.0 i-VTEC"] },
  ],
  Audi: [
    { name: "A3", years: [2012, 2021], engines: ["1.4 TSI", "2.0 TDI"] },
    { name: "A4", years: [2012, 2022], engines: ["2.0 TFSI", "2.0 TDI"] },
    { name: "A6", years: [2012, 2022], engines: ["2.0 TDI", "3.0 TFSI"] },
    { name: "Q5", years: [2012, 2022], engines: ["2.0 TFSI", "2.0 TDI"] },
  ],
  Skoda: [
    { name: "Octavia", years: [2013, 2022], engines: ["1.4 TSI", "2.0 TDI", "1.6 TDI"] },
    { name: "Fabia", years: [2011, 2021], engines: ["1.0 TSI", "1.2 TSI"] },
    { name: "Superb", years: [2012, 2022], engines: ["1.8 TSI", "2.0 TDI"] },
  ],
  Renault: [
    { name: "Clio", years: [2012, 2022], engines: ["0.9 TCe", "1.5 dCi"] },
    { name: "Megane", years: [2011, 2021], engines: ["1.2 TCe", "1.5 dCi"] },
    { name: "Captur", years: [2013, 2022], engines: ["0.9 TCe", "1.5 dCi"] },
  ],
  Hyundai: [
    { name: "i30", years: [2012, 2022], engines: ["1.4 T-GDi", "1.6 CRDi"] },
    { name: "Tucson", years: [2012, 2022], engines: ["1.6 T-GDi", "2.0 CRDi"] },
    { name: "i20", years: [2011, 2021], engines: ["1.0 T-GDi", "1.2 MPi"] },
  ],
  Volvo: [
    { name: "V60", years: [2011, 2022], engines: ["D4 2.0", "T5 2.0"] },
    { name: "XC60", years: [2011, 2022], engines: ["D4 2.0", "T6 2.0", "D5 2.4"] },
    { name: "XC90", years: [2012, 2022], engines: ["D5 2.0", "T6 2.0"] },
  ],
};

/** One application of a demo product: a model over some years, perhaps one engine only. */
export interface DemoApplication {
  make: string;
  model: string;
  years: [number, number];
  /** Only this engine; absent means every engine of the model. */
  engine?: string;
  position?: string;
  quantity?: number;
  note?: string;
}

/** The demo products' fitment, by part number. */
export const demoFitment: Record<string, DemoApplication[]> = {
  "PW-BK-3001": [
    { make: "Volkswagen", model: "Golf", years: [2013, 2020], position: "Front", quantity: 1 },
    { make: "Audi", model: "A3", years: [2013, 2020], position: "Front", quantity: 1 },
    { make: "Skoda", model: "Octavia", years: [2013, 2020], position: "Front", quantity: 1 },
    {
      make: "Toyota",
      model: "Corolla",
      years: [2014, 2019],
      position: "Front",
      note: "with 296 mm discs",
    },
  ],
  "PW-FL-1104": [
    { make: "Volkswagen", model: "Golf", years: [2012, 2021], engine: "1.4 TSI" },
    { make: "Volkswagen", model: "Tiguan", years: [2012, 2020], engine: "1.4 TSI" },
    { make: "Audi", model: "A3", years: [2013, 2021], engine: "1.4 TSI" },
    { make: "Skoda", model: "Octavia", years: [2013, 2020], engine: "1.4 TSI" },
    { make: "Toyota", model: "Corolla", years: [2012, 2019], engine: "1.6 Dual VVT-i" },
    { make: "Toyota", model: "Yaris", years: [2011, 2020] },
  ],
  "PW-IG-2206": [
    { make: "Volkswagen", model: "Golf", years: [2012, 2020], engine: "1.4 TSI", quantity: 1 },
    { make: "Volkswagen", model: "Polo", years: [2014, 2021], engine: "1.2 TSI" },
    { make: "Skoda", model: "Fabia", years: [2014, 2021], engine: "1.2 TSI" },
    { make: "Toyota", model: "Corolla", years: [2012, 2018], engine: "1.6 Dual VVT-i" },
    { make: "Honda", model: "Civic", years: [2012, 2016], engine: "1.8 i-VTEC" },
  ],
  "PW-EL-4120": [
    { make: "Ford", model: "Focus", years: [2011, 2018], engine: "2.0 TDCi" },
    { make: "Ford", model: "Mondeo", years: [2012, 2019], engine: "2.0 TDCi" },
    { make: "Ford", model: "Kuga", years: [2013, 2019], engine: "2.0 TDCi", note: "with A/C" },
    { make: "Volvo", model: "V60", years: [2011, 2018], engine: "D4 2.0" },
  ],
  "PW-CO-5210": [
    {
      make: "Volkswagen",
      model: "Golf",
      years: [2013, 2020],
      note: "manual transmission",
    },
    { make: "Audi", model: "A3", years: [2013, 2020], note: "manual transmission" },
    { make: "Honda", model: "Civic", years: [2012, 2021] },
    { make: "Hyundai", model: "i30", years: [2012, 2020] },
  ],
  "PW-SU-6302": [
    { make: "Volkswagen", model: "Golf", years: [2012, 2020], position: "Rear", quantity: 2 },
    { make: "Volkswagen", model: "Passat", years: [2011, 2019], position: "Rear", quantity: 2 },
    { make: "Ford", model: "Focus", years: [2011, 2018], position: "Rear", quantity: 2 },
    { make: "Renault", model: "Megane", years: [2011, 2021], position: "Rear", quantity: 2 },
    { make: "Hyundai", model: "i30", years: [2012, 2021], position: "Rear", quantity: 2 },
  ],
  "PW-EN-7014": [
    { make: "Volkswagen", model: "Golf", years: [2012, 2020], engine: "2.0 TDI" },
    { make: "Volkswagen", model: "Passat", years: [2011, 2020], engine: "2.0 TDI" },
    { make: "Audi", model: "A4", years: [2012, 2019], engine: "2.0 TDI" },
    { make: "Skoda", model: "Octavia", years: [2013, 2020], engine: "2.0 TDI" },
    { make: "Skoda", model: "Superb", years: [2012, 2020], engine: "2.0 TDI" },
  ],
  "PW-CL-8230": [
    { make: "Volkswagen", model: "Golf", years: [2012, 2019], engine: "1.6 TDI" },
    { make: "Skoda", model: "Octavia", years: [2013, 2019], engine: "1.6 TDI" },
    { make: "Ford", model: "Focus", years: [2011, 2018], engine: "1.0 EcoBoost" },
    { make: "Renault", model: "Clio", years: [2012, 2019], engine: "1.5 dCi" },
  ],
  "PW-FU-9110": [
    { make: "Toyota", model: "Camry", years: [2012, 2017], engine: "2.5 Dual VVT-i" },
    { make: "Toyota", model: "RAV4", years: [2013, 2018], engine: "2.0 Valvematic" },
    { make: "Honda", model: "Accord", years: [2013, 2017] },
    { make: "Hyundai", model: "Tucson", years: [2015, 2020], note: "from 06/2015" },
  ],
  "PW-LT-9302": [
    { make: "BMW", model: "3 Series", years: [2012, 2018], position: "Front", quantity: 2 },
    { make: "BMW", model: "5 Series", years: [2011, 2016], position: "Front", quantity: 2 },
    { make: "Audi", model: "A4", years: [2012, 2015], position: "Front", quantity: 2 },
    {
      make: "Volvo",
      model: "XC60",
      years: [2011, 2017],
      position: "Front",
      quantity: 2,
      note: "with halogen headlamps",
    },
  ],
  "PW-FL-1210": [
    { make: "Volkswagen", model: "Golf", years: [2013, 2021], engine: "1.4 TSI" },
    { make: "Audi", model: "A3", years: [2013, 2021], engine: "1.4 TSI" },
    { make: "Ford", model: "Fiesta", years: [2010, 2021] },
    { make: "Renault", model: "Captur", years: [2013, 2022] },
    { make: "Hyundai", model: "i20", years: [2011, 2021] },
  ],
  "PW-CO-5402": [
    { make: "Volkswagen", model: "Golf", years: [2012, 2020], engine: "2.0 TDI" },
    { make: "Audi", model: "A6", years: [2012, 2018], engine: "2.0 TDI" },
    { make: "BMW", model: "X3", years: [2011, 2017], engine: "xDrive20d 2.0" },
    { make: "Volvo", model: "XC90", years: [2015, 2022] },
  ],
  "PW-SU-6510": [
    { make: "Volkswagen", model: "Golf", years: [2013, 2020], position: "Front", quantity: 2 },
    { make: "Toyota", model: "RAV4", years: [2013, 2022], position: "Rear", quantity: 2 },
    { make: "Honda", model: "CR-V", years: [2012, 2022], position: "Front", quantity: 2 },
    { make: "Ford", model: "Kuga", years: [2013, 2022], position: "Front", quantity: 2 },
  ],
  "PW-WP-1060": [
    { make: "Volkswagen", model: "Golf", years: [2012, 2021], position: "Front", quantity: 1 },
    { make: "Volkswagen", model: "Polo", years: [2010, 2021], position: "Front" },
    { make: "Toyota", model: "Yaris", years: [2011, 2020], position: "Front" },
    { make: "Renault", model: "Clio", years: [2012, 2022], position: "Front" },
    { make: "Hyundai", model: "Tucson", years: [2015, 2022], position: "Front" },
    { make: "BMW", model: "X3", years: [2011, 2022], position: "Front" },
  ],
};

/** Every demo engine name, in order of first use. */
const demoEngineNames = [
  ...new Set(Object.values(demoVehicles).flatMap((models) => models.flatMap((m) => m.engines))),
];

const indexOrThrow = (i: number, what: string) => {
  if (i < 0) throw new Error(`not a demo vehicle: ${what}`);
  return i;
};

/**
 * The demo vehicles' VCdb ids, made up (the Auto Care Association's are licensed), so that ACES
 * files written for the demo match it (docs/imports.md): makes 101, 102…; a make's models its id
 * × 100 + 1, 2…; a base vehicle its model's id × 10,000 + the year (the 2015 Golf: 101012015);
 * engine configurations 5001, 5002… in order of first use.
 */
export const demoVcdb = {
  make: (make: string) => 101 + indexOrThrow(Object.keys(demoVehicles).indexOf(make), make),
  model: (make: string, model: string) =>
    demoVcdb.make(make) * 100 +
    1 +
    indexOrThrow(
      (demoVehicles[make] ?? []).findIndex((m) => m.name === model),
      model,
    ),
  baseVehicle: (make: string, model: string, year: number) =>
    demoVcdb.model(make, model) * 10_000 + year,
  engine: (name: string) => 5001 + indexOrThrow(demoEngineNames.indexOf(name), name),
};
