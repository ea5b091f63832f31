import { useState, type ReactNode } from "react";
import { termsLabels } from "#contract/terms";
import {
  companyCreateSchema,
  companyInvitationCreateSchema,
  companyRoles,
  type CompanyInvitation,
  type CompanyMember,
  type CompanyRole,
} from "#contract/companies";
import { useConfirm } from "../../../components/confirm-dialog";
import { BreakableEmail, DataTable, type Column } from "../../../components/data-table";
import { FormField } from "../../../components/form-field";
import { QueryError } from "../../../components/query-error";
import { PageSpinner } from "../../../components/spinner";
import { formatDate } from "../../../lib/format";
import { notify, notifyOutcome } from "../../../lib/notify";
import { useApiForm } from "../../../lib/use-api-form";
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
import { limitText, MemberLimitsDialog } from "./member-limits";
import { ShipToAddresses } from "./ship-to-addresses";
import { CompanyFormBox, companyFormValues, type CompanyChoices } from "./company-fields";
import { RowButton } from "../../../components/edit-remove-buttons";
import { PageSection } from "../../../components/page-title";

const roleLabels: Record<CompanyRole, string> = {
  owner: "Owner",
  buyer: "Buyer",
  viewer: "Viewer",
};

/** Admin: one company's details, its members (role, limits, remove), ship-to addresses and invitations. */
export function CompanyAdmin({
  companyId,
  priceLists,
  groups,
}: CompanyChoices & { companyId: string }) {
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
        groups={groups}
      />
      <CompanyTaxStatus companyId={companyId} />
      <Members companyId={companyId} />
      <ShipToAddresses companyId={companyId} canManage />
      <Invitations companyId={companyId} />
    </div>
  );
}

/**
 * One of a company's lists as its query stands: the spinner, the error, `empty` when it holds
 * none, else its rows as a table.
 */
function CompanyTable<Row>({
  query: { isPending, error, data },
  empty,
  ...table
}: {
  query: { isPending: boolean; error: Error | null; data: Row[] | undefined };
  empty: ReactNode;
} & Omit<Parameters<typeof DataTable<Row>>[0], "rows">) {
  if (isPending) return <PageSpinner />;
  if (error) return <QueryError error={error} />;
  if (!data?.length) return <>{empty}</>;
  return <DataTable {...table} rows={data} />;
}

function EditCompany({ companyId, priceLists, groups }: CompanyChoices & { companyId: string }) {
  const { data: company } = useCompany(companyId);
  const save = useUpdateCompany(companyId);
  const { register, submitWith, formState } = useApiForm(companyCreateSchema, {
    defaultValues: companyFormValues(company),
  });
  return (
    <CompanyFormBox
      summary={
        <>
          Details:{" "}
          {company?.priceListName ? `price list ${company.priceListName}` : "no price list"}
          {company ? ` · ${termsLabels[company.paymentTerms]}` : ""}
          {company ? ` · ${company.customerGroupName}` : ""}
        </>
      }
      label="Company details"
      onSubmit={submitWith(async (input) => {
        await save.mutateAsync(input);
        notify.success("Saved");
      })}
      register={register}
      errors={formState.errors}
      priceLists={priceLists}
      groups={groups}
      idPrefix="company"
      // The refusal is also said here when it names a field, as this form always has.
      error={save.error?.message}
      busy={save.isPending}
      submitLabel="Save company"
    />
  );
}

export function Members({ companyId }: { companyId: string }) {
  const { data, error, isPending } = useMembers(companyId);
  const remove = useRemoveMember(companyId);
  const update = useUpdateMember(companyId);
  const [confirm, confirmDialog] = useConfirm();
  const [editing, setEditing] = useState<CompanyMember>();
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
      cell: (m) => limitText(m.orderLimit),
    },
    {
      header: "Monthly limit",
      numeric: true,
      cell: (m) => limitText(m.monthlyLimit),
    },
    { header: "Joined", from: "lg", cell: (m) => formatDate(m.joinedAt) },
    {
      header: "Actions",
      role: "actions",
      cell: (m) => (
        <>
          <RowButton
            label={`Set limits of ${m.email}`}
            tone="outline"
            onClick={() => setEditing(m)}
          >
            Set limits
          </RowButton>
          <button
            type="button"
            className="btn btn-sm btn-outline btn-error"
            disabled={remove.isPending}
            onClick={async () => {
              const question = `Remove ${m.email} from the company? Their account stays.`;
              if (!(await confirm({ title: question, confirmLabel: "Remove" }))) return;
              remove.mutate(m.userId, notifyOutcome(`Removed ${m.email}`));
            }}
          >
            Remove
          </button>
        </>
      ),
    },
  ];
  return (
    <PageSection compact headingId="members" title="Members">
      <p className="text-sm text-base-content/75">
        An order over a buyer's per-order or monthly limit waits for an owner's approval
        (Approvals).
      </p>
      <CompanyTable
        query={{ isPending, error, data }}
        empty={
          <p className="rounded-box bg-base-200 p-6 text-center text-base-content/75">
            No members yet: invite someone below.
          </p>
        }
        label="Members"
        columns={columns}
        rowKey={(m) => m.userId}
        rowTestId="company-member"
      />
      {confirmDialog}
      <MemberLimitsDialog
        companyId={companyId}
        member={editing}
        onClose={() => setEditing(undefined)}
      />
    </PageSection>
  );
}

export function Invitations({ companyId }: { companyId: string }) {
  const { data, error, isPending } = useInvitations(companyId);
  const invite = useInvite(companyId);
  const revoke = useRevokeInvitation(companyId);
  const { register, reset, submitWith, formError, formState } = useApiForm(
    companyInvitationCreateSchema,
    { defaultValues: { email: "", role: "buyer" } },
  );
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
              revoke.mutate(i.id, notifyOutcome(`Withdrew the invitation of ${i.email}`))
            }
          >
            Withdraw
          </button>
        ),
    },
  ];
  return (
    <PageSection compact headingId="invitations" title="Invitations">
      <form
        aria-label="Invite a member"
        className="grid gap-3 rounded-box border border-base-300 p-4 sm:grid-cols-[1fr_auto_auto] sm:items-end"
        onSubmit={submitWith(async (input) => {
          const i = await invite.mutateAsync(input);
          reset();
          notify.success(`Invitation sent to ${i.email}`);
        })}
      >
        <FormField
          label="Email address"
          id="invite-email"
          type="email"
          required
          // A refusal that names no field is about the address (already a member, say).
          error={formState.errors.email?.message ?? formError}
          {...register("email")}
        />
        <div className="flex flex-col gap-1">
          <label htmlFor="invite-role" className="text-sm font-medium">
            Role
          </label>
          <select id="invite-role" className="select select-bordered" {...register("role")}>
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
      <CompanyTable
        query={{ isPending, error, data }}
        empty={<p className="text-sm text-base-content/75">No invitations sent yet.</p>}
        label="Invitations"
        columns={columns}
        rowKey={(i) => i.id}
        rowTestId="company-invitation"
      />
    </PageSection>
  );
}
