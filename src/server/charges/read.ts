import { type SQL } from "drizzle-orm";
import { sql } from "../db/sql";
import {
  addressMessages,
  regionOfPostalCode,
  type DestinationEstimate,
} from "../../contract/addresses";
import { companyAddressMessages } from "../../contract/companies";
import type { DbOrTx } from "../db/database";
import type { ShipToSnapshot } from "../orders/tables";
import { fieldError, notFound } from "../errors";
import type { ShippingZoneRule } from "../shipping/rates";
import type { BuyerTax, TaxRateRule } from "../tax/rules";
import type { ChargeFacts } from "./estimate";

/** Where an order or a quote goes. */
export type DestinationSource =
  /**
   * One of the customer's saved addresses, or one of their company's ship-to addresses
   * (checkout, the cart's quote, a signed-in quote).
   */
  | { addressId: string }
  /** The customer's default address, when they have one (the doors that take free text). */
  | { defaultAddress: true }
  /** An address given whole with the order (the product page's dialog, an API caller). */
  | { shipTo: ShipToSnapshot }
  /** A visitor's estimate: a country and a postal code. */
  | { estimate: DestinationEstimate }
  | null;

/** The address an order goes to: a saved one (with its id), or one given with the order. */
export interface SavedAddress extends ShipToSnapshot {
  id?: string;
}

/** What `chargesJson` reads. */
export interface ChargesRow {
  address: SavedAddress | null;
  zones: ShippingZoneRule[];
  rates: TaxRateRule[];
  /** The address asked for is a company's ship-to address (whether or not the caller's). */
  companyAddress?: boolean;
  /** The customer's company's tax facts (null: no company, or no customer). */
  buyer?: BuyerTax | null;
}

/**
 * The facts shipping and tax are decided on, in one statement: the address (a saved one, or
 * the default), the zones serving its country with their methods, and its country's tax rates.
 */
export async function readCharges(
  tx: DbOrTx,
  customerId: string | undefined,
  source: DestinationSource,
  sellerCountry?: string,
): Promise<{ facts: ChargeFacts; address: SavedAddress | null }> {
  if (!source) return chargesFromJson(source, null, sellerCountry);
  const result = await tx.execute<{ charges: ChargesRow }>(
    sql`select ${chargesJson(customerId, source)} as charges`,
  );
  return chargesFromJson(source, result.rows[0]!.charges, sellerCountry);
}

/**
 * The same facts as one JSON value (a `ChargesRow`), for a statement that reads other things
 * too (checkout reads them with the order's products).
 */
export function chargesJson(
  customerId: string | undefined,
  source: NonNullable<DestinationSource>,
): SQL {
  if ("estimate" in source) {
    return rulesJson(customerId, sql`select ${source.estimate.country}::text`);
  }
  if ("shipTo" in source) return rulesJson(customerId, sql`select ${source.shipTo.country}::text`);
  if (!customerId) throw notFound(addressMessages.notFound);
  const which = "addressId" in source ? sql`id = ${source.addressId}::uuid` : sql`is_default`;
  const own = sql`select id, name, company, line1, line2, city, region,
                         postal_code as "postalCode", country, phone
                    from addresses where user_id = ${customerId} and ${which}`;
  if (!("addressId" in source)) {
    return rulesJson(customerId, sql`select country from chosen`, sql`${own} limit 1`);
  }
  // The id may name one of the caller's company's ship-to addresses instead
  // (docs/companies.md): found only through the caller's membership, read now, in this
  // statement of the placement's rather than through companies/membership.ts (a round trip more).
  const chosen = sql`(${own})
    union all
    (select a.id, a.name, a.company, a.line1, a.line2, a.city, a.region,
            a.postal_code as "postalCode", a.country, a.phone
       from company_addresses a
       join company_members cm on cm.company_id = a.company_id and cm.user_id = ${customerId}
      where a.id = ${source.addressId}::uuid)
    limit 1`;
  // Whether it is a company's ship-to address at all: one of another company's (or of a company
  // the caller has left) is refused with its own message rather than "not found".
  const companyAddress = sql`exists(select 1 from company_addresses
                                     where id = ${source.addressId}::uuid)`;
  return rulesJson(customerId, sql`select country from chosen`, chosen, companyAddress);
}

/** The charge facts from what `chargesJson` read (null: no destination). */
export function chargesFromJson(
  source: DestinationSource,
  row: ChargesRow | null,
  sellerCountry?: string,
): { facts: ChargeFacts; address: SavedAddress | null } {
  const none = { facts: { place: null, zones: [], rates: [] }, address: null };
  if (!source || !row) return none;
  const buyer = { buyer: row.buyer ?? null, sellerCountry };
  if ("estimate" in source) {
    const { country, postalCode } = source.estimate;
    const region = regionOfPostalCode(country, postalCode);
    return {
      facts: {
        place: { country, region, postalCode },
        zones: row.zones,
        rates: row.rates,
        ...buyer,
      },
      address: null,
    };
  }
  const address = "shipTo" in source ? source.shipTo : row.address;
  if (!address) {
    if ("addressId" in source && row.companyAddress) {
      throw fieldError("addressId", companyAddressMessages.notYourCompany);
    }
    if ("addressId" in source) throw notFound(addressMessages.notFound);
    // No place: nothing is taxed, but an exempt company's note still holds.
    return { facts: { ...none.facts, ...buyer }, address: null };
  }
  return {
    facts: {
      place: {
        country: address.country,
        region: address.region || null,
        postalCode: address.postalCode,
      },
      zones: row.zones,
      rates: row.rates,
      ...buyer,
    },
    address,
  };
}

/**
 * The customer's company's tax facts (docs/tax.md), as a `BuyerTax` or null: the
 * membership joined here, in the placement's statement (see `chosen` above).
 */
function buyerJson(customerId: string | undefined): SQL {
  if (!customerId) return sql`null::json`;
  return sql`(select json_build_object(
                'taxId', c.tax_id, 'taxIdCountry', c.tax_id_country,
                'taxIdValidated', c.tax_id_validated_at is not null,
                'exemptionCertificate', c.tax_exemption_certificate)
                from company_members cm join companies c on c.id = cm.company_id
               where cm.user_id = ${customerId})`;
}

function rulesJson(
  customerId: string | undefined,
  countrySql: SQL,
  chosenSql?: SQL,
  companyAddressSql?: SQL,
): SQL {
  return sql`(
    with chosen as (${chosenSql ?? sql`select null::uuid as id, null::text as country where false`}),
    place as (${countrySql})
    select json_build_object(
      'address', (select row_to_json(chosen) from chosen),
      'companyAddress', ${companyAddressSql ?? sql`false`},
      'buyer', ${buyerJson(customerId)},
      'zones', coalesce((
        select json_agg(json_build_object(
                 'id', z.id, 'name', z.name, 'countries', z.countries, 'regions', z.regions,
                 'methods', coalesce((
                   select json_agg(json_build_object(
                            'id', m.id, 'name', m.name, 'estimate', m.estimate, 'kind', m.kind,
                            'priceCents', m.price_cents, 'freeOverCents', m.free_over_cents,
                            'bands', m.bands, 'transitMinDays', m.transit_min_days,
                            'transitMaxDays', m.transit_max_days) order by m.position, m.id)
                     from shipping_methods m where m.zone_id = z.id), '[]'))
               order by z.created_at, z.id)
          from shipping_zones z where (select * from place) = any(z.countries)), '[]'),
      'rates', coalesce((
        select json_agg(json_build_object(
                 'id', t.id, 'country', t.country, 'region', t.region,
                 'postalCode', t.postal_code, 'name', t.name,
                 'rateMillipercent', t.rate_millipercent,
                 'appliesToShipping', t.applies_to_shipping))
          from tax_rates t where t.country = (select * from place)), '[]')))`;
}
