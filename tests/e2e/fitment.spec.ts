import { demoFitment } from "../../src/server/vehicles/demo-vehicles";
import { demoAdmin, signInThroughApi, signUpThroughApi } from "./auth-helpers";
import { expect, test } from "./fixtures";

// A driver picks their car on the landing page and sees only parts that fit it. Other tests add
// products meanwhile, but never with fitment, so the filtered list is the demo's alone.

/** The demo part numbers written to fit a 2016 Golf with the 1.4 TSI (or any engine). */
const golfTsiParts = Object.entries(demoFitment)
  .filter(([, apps]) =>
    apps.some(
      (a) =>
        a.make === "Volkswagen" &&
        a.model === "Golf" &&
        a.years[0] <= 2016 &&
        2016 <= a.years[1] &&
        (a.engine === undefined || a.engine === "1.4 TSI"),
    ),
  )
  .map(([pn]) => pn)
  .sort();

test("picking Year, Make and Model shows the parts that fit, with the vehicles and OE numbers", async ({
  page,
}) => {
  // Signed in, as the product page asks.
  await signUpThroughApi(page);
  await page.goto("/");
  // The selector's code loads on the visitor's first scroll, move or key (the app may still be
  // replacing the pre-rendered page meanwhile, so move and scroll until it is there).
  const selector = page.getByTestId("vehicle-selector");
  let moves = 0;
  await expect(async () => {
    moves += 1;
    await page.mouse.move(100 + moves, 100);
    await page
      .getByRole("heading", { name: "Find parts that fit your vehicle" })
      .scrollIntoViewIfNeeded();
    await expect(selector.getByLabel("Year")).toBeEnabled({ timeout: 1000 });
  }).toPass();
  await selector.getByLabel("Year").selectOption("2016");
  await selector.getByLabel("Make").selectOption({ label: "Volkswagen" });
  await selector.getByLabel("Model").selectOption({ label: "Golf" });
  // The Golf has three engines, so the engine is asked.
  await selector.getByLabel("Engine").selectOption({ label: "1.4 TSI" });
  await selector.getByRole("button", { name: "Show parts that fit" }).click();

  await expect(page).toHaveURL(/\/allproducts\?year=2016&make=\d+&model=\d+&engine=\d+$/);
  const label = "2016 Volkswagen Golf 1.4 TSI";
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Parts that fit your ${label}`);
  const cards = page.getByRole("article");
  await expect(cards).toHaveCount(golfTsiParts.length);
  expect((await cards.getByTestId("part-number").allTextContents()).sort()).toEqual(golfTsiParts);
  for (const fit of await cards.getByTestId("fit").allTextContents()) {
    expect(fit).toMatch(new RegExp(`^Fits your ${label}`));
  }
  await expect(cards.filter({ hasText: "PW-SU-6302" }).getByTestId("fit")).toContainText(
    "Rear, 2 per vehicle",
  );

  // The link can be shared: opened afresh, it shows the same.
  await page.reload();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Parts that fit your ${label}`);

  // My garage: save the car, clear the filter, then pick it again with a click.
  await page.getByRole("button", { name: "Save this vehicle in My garage" }).click();
  const garage = page.getByTestId("garage");
  await expect(garage.getByRole("button", { name: label, exact: true })).toBeVisible();
  await page.getByRole("button", { name: "Clear vehicle" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("All products");
  await garage.getByRole("button", { name: label, exact: true }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Parts that fit your ${label}`);

  // The product page says it fits, lists the vehicles by model with year ranges and the numbers.
  await cards
    .filter({ hasText: "PW-BK-3001" })
    .getByRole("link", { name: "Ventilated Brake Disc & Caliper Kit", exact: true })
    .click();
  await expect(page).toHaveURL(/\/products\//);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(
    "Ventilated Brake Disc & Caliper Kit",
  );
  await expect(page.getByTestId("fit")).toContainText(`Fits your ${label}`);
  await expect(page.getByTestId("fit")).toContainText("Front");
  const vehicles = page.getByTestId("fits-vehicles");
  await expect(
    vehicles.getByRole("listitem").filter({ hasText: "Volkswagen Golf" }).first(),
  ).toContainText("2013–2020");
  await expect(vehicles).toContainText("Toyota Corolla");
  const refs = page.getByTestId("cross-references");
  await expect(refs.getByRole("row", { name: "OE Volkswagen 5Q0 615 301 G" })).toBeVisible();

  // Searching the OE number typed with dashes finds it (the vehicle filter still on).
  await page.goBack();
  await page.getByRole("searchbox", { name: "Search parts" }).fill("5q0-615-301-g");
  await page.getByRole("button", { name: "Search", exact: true }).click();
  await expect(cards.first().getByTestId("part-number")).toHaveText("PW-BK-3001");
  await expect(cards.first().getByTestId("search-match")).toHaveText(
    "matches OE 5Q0 615 301 G (Volkswagen)",
  );
  await expect(cards.first().getByTestId("fit")).toContainText(`Fits your ${label}`);
});

test("a VIN is checked and fills in the year and make; a mistyped one is said so", async ({
  page,
}) => {
  await page.goto("/allproducts");
  // The pre-rendered page is replaced by the live one: a VIN box opened before that would close.
  await expect(page.locator("html[data-live]")).toBeAttached();
  const selector = page.getByTestId("vehicle-selector");
  await selector.getByText("Have a VIN? Check it").click();
  const vin = selector.getByLabel("VIN", { exact: true });
  await vin.fill("1M8GDM9A5KP042788");
  await selector.getByRole("button", { name: "Check VIN" }).click();
  await expect(selector.getByTestId("vin-result")).toHaveText(
    "The check digit (9th character) is 5 but should be X: the VIN is mistyped",
  );
  // A European VIN carries no check digit (a Z in position 9): accepted, its year and make filled.
  await vin.fill("WVWZZZAUZGW000001");
  await selector.getByRole("button", { name: "Check VIN" }).click();
  await expect(selector.getByTestId("vin-result")).toContainText("Model year 2016");
  await expect(selector.getByLabel("Year")).toHaveValue("2016");
  await expect(selector.getByLabel("Make").locator("option:checked")).toHaveText("Volkswagen");
});

test("an admin adds a year range of a model to a part, and shoppers of that car see the part", async ({
  page,
}) => {
  await signInThroughApi(page, demoAdmin);
  await page.goto("/dashboard/manageallproducts?q=PW-CL-8230");
  await page.getByRole("button", { name: "Fitment of Three-Piece Clutch Kit" }).first().click();
  const dialog = page.getByRole("dialog", { name: "Fitment of Three-Piece Clutch Kit" });
  const rows = dialog.getByTestId("fitment-rows");
  await expect(rows).toContainText("Volkswagen Golf");
  const add = dialog.getByRole("form", { name: "Add a vehicle" });
  await add.getByLabel("From year").selectOption("2015");
  await add.getByLabel("To year").selectOption("2017");
  await add.getByLabel("Make").selectOption({ label: "Volkswagen" });
  await add.getByLabel("Model").selectOption({ label: "Polo" });
  await add.getByLabel("Position").fill("Gearbox");
  await add.getByLabel("Note").fill("from 06/2015");
  await add.getByRole("button", { name: "Add vehicle" }).click();
  await expect(rows.getByRole("row").filter({ hasText: "Volkswagen Polo" })).toContainText(
    "2015–2017",
  );
  await dialog.getByRole("button", { name: "Save fitment" }).click();
  await expect(dialog).toBeHidden();

  // A shopper with a 2016 Polo now finds it, and the card tells the note.
  await page.goto("/allproducts");
  const selector = page.getByTestId("vehicle-selector");
  await selector.getByLabel("Year").selectOption("2016");
  await selector.getByLabel("Make").selectOption({ label: "Volkswagen" });
  await selector.getByLabel("Model").selectOption({ label: "Polo" });
  await selector.getByRole("button", { name: "Show parts that fit" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(
    "Parts that fit your 2016 Volkswagen Polo",
  );
  const card = page.getByRole("article").filter({ hasText: "PW-CL-8230" });
  await expect(card.getByTestId("fit")).toContainText("Gearbox");
  await expect(card.getByTestId("fit")).toContainText("from 06/2015");
});
