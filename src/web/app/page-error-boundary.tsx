import { Component, type ReactNode } from "react";

interface Props {
  /** The page's path: going to another page clears the error. */
  resetKey: string;
  children: ReactNode;
}

interface State {
  failed: boolean;
  resetKey: string;
}

/**
 * A page whose code could not be downloaded (the network dropped, or a new release replaced it)
 * or that failed while rendering: say so and offer a reload, keeping the navbar usable.
 */
export class PageErrorBoundary extends Component<Props, State> {
  override state: State = { failed: false, resetKey: this.props.resetKey };

  static getDerivedStateFromProps(props: Props, state: State): Partial<State> | null {
    return props.resetKey === state.resetKey ? null : { failed: false, resetKey: props.resetKey };
  }

  static getDerivedStateFromError(): Partial<State> {
    return { failed: true };
  }

  override render() {
    if (!this.state.failed) return this.props.children;
    return (
      <div className="mx-auto max-w-xl px-4 py-16 text-center">
        <div role="alert" className="alert alert-error alert-soft mb-6">
          <span>This page could not be loaded.</span>
        </div>
        <button type="button" className="btn btn-primary" onClick={() => window.location.reload()}>
          Reload the page
        </button>
      </div>
    );
  }
}
