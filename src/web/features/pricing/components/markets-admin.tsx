import { useState } from "react";
import {
  marketCurrencies,
  marketInputSchema,
  rateWords,
  roundingRules,
  roundingWords,
  type Market,
  type MarketInput,
} from "#contract/markets";
import { countryName } from "#contract/addresses";
import { ListTable, type Column } from "../../../components/data-table";
import { RowButton } from "../../../components/edit-remove-buttons";
import { FormField } from "../../../components/form-field";
import { SelectField } from "../../../components/select-field";
import { formatPrice } from "../../../lib/format";
import { useApiForm } from "../../../lib/use-api-form";
import { useSiteConfig } from "../../../lib/use-site-config";
import { useCreateMarket, useMarkets, useUpdateMarket } from "../api/markets";
import { NewEntryForm } from "./new-entry-form";
import { EditEntryDialog } from "./edit-entry-dialog";
import { wholeListStates } from "../../../lib/use-list-page";

/** A new market's values: euros, to the cent, active. */
const newMarket: MarketInput = {
  code: "",
  name: "",
  currency: "EUR",
  countries: "",
  pricesIncludeTax: false,
  rate: 1,
  rounding: "cent",
  active: true,
};

/** A saved market as the form shows it (its countries as "DE FR IT"). */
const asInput = (m: Market): MarketInput => ({
  code: m.code,
  name: m.name,
  currency: m.currency,
  countries: m.countries.join(" "),
  pricesIncludeTax: m.pricesIncludeTax,
  rate: m.rate,
  rounding: m.rounding,
  active: m.active,
});

/** A market's form, the same for a new one and an edit (docs/pricing.md "Markets and currencies"). */
function useMarketForm(prefix: string, defaultValues: MarketInput, storeCurrency: string) {
  const form = useApiForm(marketInputSchema, { defaultValues });
  const { field, register } = form;
  const currency = form.watch("currency");
  const fields = (
    <>
      <FormField label="Code" id={`${prefix}-code`} required {...field("code")} />
      <FormField label="Name" id={`${prefix}-name`} required {...field("name")} />
      <SelectField label="Currency" id={`${prefix}-currency`} {...field("currency")}>
        {marketCurrencies.map((c) => (
          <option key={c} value={c}>
            {c}
          </option>
        ))}
      </SelectField>
      <FormField
        label="Countries"
        id={`${prefix}-countries`}
        hint="ISO codes, like DE FR IT"
        required
        {...field("countries")}
      />
      <FormField
        label={`Exchange rate (${currency} for 1 ${storeCurrency})`}
        id={`${prefix}-rate`}
        type="number"
        inputMode="decimal"
        min="0"
        step="0.000001"
        required
        {...field("rate", { valueAsNumber: true })}
      />
      <SelectField label="Rounding" id={`${prefix}-rounding`} {...field("rounding")}>
        {roundingRules.map((r) => (
          <option key={r} value={r}>
            {roundingWords[r]}
          </option>
        ))}
      </SelectField>
      <label className="flex items-center gap-2">
        <input type="checkbox" className="checkbox checkbox-sm" {...register("pricesIncludeTax")} />
        Consumers see prices with VAT included
      </label>
      <label className="flex items-center gap-2">
        <input type="checkbox" className="checkbox checkbox-sm" {...register("active")} />
        Active
      </label>
    </>
  );
  return { ...form, fields };
}

/**
 * Admin: the markets (docs/pricing.md "Markets and currencies"): the list, a new market and
 * editing one (its currency, countries, exchange rate, rounding and VAT display).
 */
export function MarketsAdmin() {
  const answer = useMarkets();
  const config = useSiteConfig().data;
  const storeCurrency = config?.currency ?? "USD";
  const [editing, setEditing] = useState<Market>();
  const columns: Column<Market>[] = [
    {
      header: "Market",
      role: "title",
      cell: (m) => (
        <span>
          <strong>{m.name}</strong> ({m.code}){m.isDefault ? " · Default" : ""}
        </span>
      ),
    },
    {
      header: "Exchange rate",
      cell: (m) => (
        <span className="flex flex-col">
          <span className="whitespace-nowrap">{rateWords(storeCurrency, m)}</span>
          <span className="text-sm text-base-content/70">{roundingWords[m.rounding]}</span>
        </span>
      ),
    },
    {
      header: "A part",
      cell: (m) => (
        <span className="whitespace-nowrap">
          {formatPrice(m.example.storePrice, storeCurrency)} →{" "}
          {formatPrice(m.example.price, m.currency)}
        </span>
      ),
    },
    {
      header: "Consumer prices",
      cell: (m) => (m.pricesIncludeTax ? "VAT included" : "Before tax"),
    },
    {
      header: "Countries",
      cell: (m) => (
        <span title={m.countries.map(countryName).join(", ")}>{m.countries.join(" ")}</span>
      ),
    },
    { header: "Status", cell: (m) => (m.active ? "Active" : "Off") },
    {
      header: "Actions",
      role: "actions",
      cell: (m) => (
        <RowButton label={`Edit ${m.name}`} tone="outline" onClick={() => setEditing(m)}>
          Edit
        </RowButton>
      ),
    },
  ];
  return (
    <div className="flex flex-col gap-4">
      <p className="text-base-content/75">
        A market is a group of countries with its currency, the exchange rate from the store&apos;s
        currency ({storeCurrency}) and how converted prices are rounded.{" "}
        {config?.marketChoice
          ? "Buyers choose theirs in the navbar, or their default delivery country does; at checkout the delivery country's market prices the order, and its payment, emails and invoice are in that currency."
          : `Buyers cannot choose a market (MARKET_CHOICE is off): every price, order and payment is in ${storeCurrency}.`}
      </p>
      <NewMarket storeCurrency={storeCurrency} />
      <ListTable
        {...wholeListStates(answer)}
        empty="No markets yet."
        label="Markets"
        columns={columns}
        rowKey={(m) => m.id}
        rowTestId="market-row"
      />
      {editing && (
        <EditMarket
          market={editing}
          storeCurrency={storeCurrency}
          onClose={() => setEditing(undefined)}
        />
      )}
    </div>
  );
}

function NewMarket({ storeCurrency }: { storeCurrency: string }) {
  const create = useCreateMarket();
  const form = useMarketForm("new-market", newMarket, storeCurrency);
  return (
    <NewEntryForm
      label="New market"
      grid="sm:grid-cols-2 lg:grid-cols-4"
      submitLabel="Create market"
      busy={create.isPending}
      form={form}
      create={async (input) => {
        const market = await create.mutateAsync(input);
        return `Created ${market.name}: ${rateWords(storeCurrency, market)}`;
      }}
    />
  );
}

function EditMarket({
  market,
  storeCurrency,
  onClose,
}: {
  market: Market;
  storeCurrency: string;
  onClose: () => void;
}) {
  const update = useUpdateMarket();
  const form = useMarketForm("edit-market", asInput(market), storeCurrency);
  return (
    <EditEntryDialog
      title={`Edit the market ${market.name}`}
      form={form}
      save={async (input) => {
        const saved = await update.mutateAsync({ id: market.id, ...input });
        return `Saved ${saved.name}: ${rateWords(storeCurrency, saved)}`;
      }}
      busy={update.isPending}
      onClose={onClose}
    >
      {market.isDefault && (
        <p className="text-sm text-base-content/75">
          The default market is the store&apos;s currency ({storeCurrency}) at rate 1.
        </p>
      )}
    </EditEntryDialog>
  );
}
