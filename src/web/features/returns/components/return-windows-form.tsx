import {
  MAX_RETURN_WINDOW_DAYS,
  returnWindowMessages,
  returnWindowsSchema,
  type ReturnWindows,
} from "#contract/returns";
import {
  SettingNumberField,
  SettingsFormFrame,
  SettingsLoader,
  useSettingsForm,
} from "../../../components/settings-form";
import { useReturnWindows, useSetReturnWindows } from "../api/returns";

/**
 * The admin's return windows: how many days after a line ships its customer may ask to return it,
 * and send back its old part for the core deposit.
 */
export function ReturnWindowsForm() {
  return (
    <SettingsLoader query={useReturnWindows()}>
      {(windows) => <WindowsForm windows={windows} />}
    </SettingsLoader>
  );
}

function WindowsForm({ windows }: { windows: ReturnWindows }) {
  const { field, frame } = useSettingsForm(
    returnWindowsSchema,
    { days: windows.days, coreDays: windows.coreDays },
    useSetReturnWindows(),
    returnWindowMessages.saved,
  );
  return (
    <SettingsFormFrame label="Return windows" saveLabel="Save windows" {...frame}>
      <SettingNumberField
        id="return-window-days"
        label="Parts (days after shipping; 0: no returns)"
        min={0}
        max={MAX_RETURN_WINDOW_DAYS}
        field={field("days", { valueAsNumber: true })}
      />
      <SettingNumberField
        id="core-return-window-days"
        label="Cores (days after shipping; 0: no core returns)"
        min={0}
        max={MAX_RETURN_WINDOW_DAYS}
        field={field("coreDays", { valueAsNumber: true })}
      />
      <p className="text-sm text-base-content/75">
        Each line's window starts when it ships. A new window applies at once to every order: a
        longer one reopens orders whose window had closed, a shorter one closes some early. Returns
        already asked for are not affected.
        {windows.updatedAt === null && ` ${returnWindowMessages.defaultsInForce}`}
      </p>
    </SettingsFormFrame>
  );
}
