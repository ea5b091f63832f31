import {
  MAX_RETURN_WINDOW_DAYS,
  returnWindowMessages,
  returnWindowsSchema,
} from "#contract/returns";
import { NumberSettingsForm } from "../../../components/settings-form";
import { useReturnWindows, useSetReturnWindows } from "../api/returns";

/**
 * The admin's return windows: how many days after a line ships its customer may ask to return it,
 * and send back its old part for the core deposit.
 */
export function ReturnWindowsForm() {
  return (
    <NumberSettingsForm
      query={useReturnWindows()}
      save={useSetReturnWindows()}
      schema={returnWindowsSchema}
      messages={returnWindowMessages}
      label="Return windows"
      saveLabel="Save windows"
      fields={[
        {
          name: "days",
          id: "return-window-days",
          label: "Parts (days after shipping; 0: no returns)",
          min: 0,
          max: MAX_RETURN_WINDOW_DAYS,
        },
        {
          name: "coreDays",
          id: "core-return-window-days",
          label: "Cores (days after shipping; 0: no core returns)",
          min: 0,
          max: MAX_RETURN_WINDOW_DAYS,
        },
      ]}
    >
      Each line's window starts when it ships. A new window applies at once to every order: a longer
      one reopens orders whose window had closed, a shorter one closes some early. Returns already
      asked for are not affected.
    </NumberSettingsForm>
  );
}
