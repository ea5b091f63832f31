import { termsLabels } from "#contract/terms";
import { useState } from "react";
import {
  companyRoles,
  type CompanyInvitation,
  type CompanyMember,
  type CompanyRole,
} from "#contract/companies";
import { BreakableEmail, DataTable, type Column } from "../../../components/data-table";
import { FormField } from "../../../components/form-field";
import { QueryError } from "../../../components/query-error";
import { PageSpinner } from "../../../components/spinner";
import { ApiError } from "../../../lib/api-client";
import { formatDate, formatPrice } from "../../../lib/format";
import { notify } from "../../../lib/notify";
import {
  useCompany,
  useInvitations,
  useInvite,
  useMembers,
  useRemoveMember,
  useRevokeInvitation,
  useUpdateCompany,
  useUpdateMember,
} from "../api/companies";
import { CompanyTaxStatus } from "./company-tax";
import { ShipToAddresses } from "./ship-to-addresses";
import { CompanyFields, companyFromForm, type PriceListOption } from "./company-fields";

const roleLabels: Record<CompanyRole, string> = {
  owner: "Owner",
  buyer: "Buyer",
  viewer: "Viewer",
};

/** Admin: one company's details, its members (role, limits, remove), ship-to addresses and invitations. */
export function CompanyAdmin({
  companyId,
  priceLists,
}: {
  companyId: string;
  priceLists: PriceListOption[];
}) {
  const company = useCompany(companyId);
  if (company.isPending) return <PageSpinner />;
  if (company.error) return <QueryError error={company.error} />;
  return (
    <div className="flex flex-col gap-6">
      <h1 className="text-2xl font-bold">{company.data.name}</h1>
      <EditCompany
        key={company.data.id + company.data.name + (company.data.taxId ?? "")}
        companyId={companyId}
        priceLists={priceLists}
      />
      <CompanyTaxStatus companyId={companyId} />
      <Members companyId={companyId} />
      <ShipToAddresses companyId={companyId} canManage />
      <Invitations companyId={companyId} />
    </div>
  );
}

function EditCompany({
  companyId,
  priceLists,
}: {
  companyId: string;
  priceLists: PriceListOption[];
}) {
  const { data: company } = useCompany(companyId);
  const save = useUpdateCompany(companyId);
  const [errors, setErrors] = useState<Record<string, string>>({});
  return (
    <details className="rounded-box border border-base-300 p-4">
      <summary className="cursor-pointer font-semibold">
        Details: {company?.priceListName ? `price list ${company.priceListName}` : "no price list"}
        {company ? ` · ${termsLabels[company.paymentTerms]}` : ""}
      </summary>
      <form
        aria-label="Company details"
        className="mt-4 grid gap-3 sm:grid-cols-2"
        onSubmit={(e) => {
          e.preventDefault();
          save.mutate(companyFromForm(new FormData(e.currentTarget)), {
            onSuccess: () => {
              setErrors({});
              notify.success("Saved");
            },
            onError: (err) =>
              setErrors(
                err instanceof ApiError
                  ? { ...err.fields, form: err.message }
                  : { form: err.message },
              ),
          });
        }}
      >
        <CompanyFields
          company={company}
          priceLists={priceLists}
          errors={errors}
          idPrefix="company"
        />
        {errors.form && (
          <p role="alert" className="text-sm text-error sm:col-span-2">
            {errors.form}
          </p>
        )}
        <button type="submit" className="btn btn-primary sm:col-span-2" disabled={save.isPending}>
          Save company
        </button>
      </form>
    </details>
  );
}

export function Members({ companyId }: { companyId: string }) {
  const { data, error, isPending } = useMembers(companyId);
  const remove = useRemoveMember(companyId);
  const update = useUpdateMember(companyId);
  const columns: Column<CompanyMember>[] = [
    {
      header: "Member",
      role: "title",
      cell: (m) => (
        <span className="flex flex-col">
          {m.name}
          <BreakableEmail email={m.email} />
        </span>
      ),
    },
    {
      header: "Role",
      cell: (m) => (
        <select
          aria-label={`Role of ${m.email}`}
          className="select select-sm select-bordered"
          value={m.role}
          disabled={update.isPending}
          onChange={(e) =>
            update.mutate(
              { userId: m.userId, body: { role: e.target.value as CompanyRole } },
              { onError: (err) => notify.error(err.message) },
            )
          }
        >
          {companyRoles.map((r) => (
            <option key={r} value={r}>
              {roleLabels[r]}
            </option>
          ))}
        </select>
      ),
    },
    {
      header: "Per-order limit",
      numeric: true,
      cell: (m) => (m.orderLimit === null ? "none" : formatPrice(m.orderLimit)),
    },
    {
      header: "Monthly limit",
      numeric: true,
      cell: (m) => (m.monthlyLimit === null ? "none" : formatPrice(m.monthlyLimit)),
    },
    { header: "Joined", from: "lg", cell: (m) => formatDate(m.joinedAt) },
    {
      header: "Actions",
      role: "actions",
      cell: (m) => (
        <button
          type="button"
          className="btn btn-sm btn-outline btn-error"
          disabled={remove.isPending}
          onClick={() => {
            if (!window.confirm(`Remove ${m.email} from the company? Their account stays.`)) return;
            remove.mutate(m.userId, {
              onSuccess: () => notify.success(`Removed ${m.email}`),
              onError: (err) => notify.error(err.message),
            });
          }}
        >
          Remove
        </button>
      ),
    },
  ];
  return (
    <section aria-labelledby="members" className="flex flex-col gap-3">
      <h2 id="members" className="text-xl font-semibold">
        Members
      </h2>
      <p className="text-sm text-base-content/75">
        An order over a buyer's per-order or monthly limit waits for an owner's approval
        (Approvals).
      </p>
      {isPending ? (
        <PageSpinner />
      ) : error ? (
        <QueryError error={error} />
      ) : data.length === 0 ? (
        <p className="rounded-box bg-base-200 p-6 text-center text-base-content/75">
          No members yet: invite someone below.
        </p>
      ) : (
        <DataTable
          label="Members"
          columns={columns}
          rows={data}
          rowKey={(m) => m.userId}
          rowTestId="company-member"
        />
      )}
    </section>
  );
}

export function Invitations({ companyId }: { companyId: string }) {
  const { data, error, isPending } = useInvitations(companyId);
  const invite = useInvite(companyId);
  const revoke = useRevokeInvitation(companyId);
  const [fieldError, setFieldError] = useState<string>();
  const columns: Column<CompanyInvitation>[] = [
    { header: "Email", role: "title", cell: (i) => <BreakableEmail email={i.email} /> },
    { header: "Role", cell: (i) => roleLabels[i.role] },
    {
      header: "Status",
      cell: (i) =>
        i.acceptedAt
          ? `Accepted ${formatDate(i.acceptedAt)}`
          : new Date(i.expiresAt) < new Date()
            ? "Expired"
            : `Pending until ${formatDate(i.expiresAt)}`,
    },
    {
      header: "Actions",
      role: "actions",
      cell: (i) =>
        !i.acceptedAt && (
          <button
            type="button"
            className="btn btn-sm btn-outline"
            disabled={revoke.isPending}
            onClick={() =>
              revoke.mutate(i.id, {
                onSuccess: () => notify.success(`Withdrew the invitation of ${i.email}`),
                onError: (err) => notify.error(err.message),
              })
            }
          >
            Withdraw
          </button>
        ),
    },
  ];
  return (
    <section aria-labelledby="invitations" className="flex flex-col gap-3">
      <h2 id="invitations" className="text-xl font-semibold">
        Invitations
      </h2>
      <form
        aria-label="Invite a member"
        className="grid gap-3 rounded-box border border-base-300 p-4 sm:grid-cols-[1fr_auto_auto] sm:items-end"
        onSubmit={(e) => {
          e.preventDefault();
          const form = e.currentTarget;
          const data = new FormData(form);
          invite.mutate(
            {
              email: String(data.get("email") ?? "").trim(),
              role: String(data.get("role")) as CompanyRole,
            },
            {
              onSuccess: (i) => {
                setFieldError(undefined);
                form.reset();
                notify.success(`Invitation sent to ${i.email}`);
              },
              onError: (err) =>
                setFieldError(
                  err instanceof ApiError ? (err.fields?.email ?? err.message) : err.message,
                ),
            },
          );
        }}
      >
        <FormField
          label="Email address"
          name="email"
          id="invite-email"
          type="email"
          required
          error={fieldError}
        />
        <div className="flex flex-col gap-1">
          <label htmlFor="invite-role" className="text-sm font-medium">
            Role
          </label>
          <select
            id="invite-role"
            name="role"
            className="select select-bordered"
            defaultValue="buyer"
          >
            {companyRoles.map((r) => (
              <option key={r} value={r}>
                {roleLabels[r]}
              </option>
            ))}
          </select>
        </div>
        <button type="submit" className="btn btn-primary" disabled={invite.isPending}>
          Send invitation
        </button>
      </form>
      {isPending ? (
        <PageSpinner />
      ) : error ? (
        <QueryError error={error} />
      ) : data.length === 0 ? (
        <p className="text-sm text-base-content/75">No invitations sent yet.</p>
      ) : (
        <DataTable
          label="Invitations"
          columns={columns}
          rows={data}
          rowKey={(i) => i.id}
          rowTestId="company-invitation"
        />
      )}
    </section>
  );
}
