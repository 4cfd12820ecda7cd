import type { GitHubAppCredentials } from './app-credentials.js';

/** What GitHub answers when a manifest's code is converted (`POST /app-manifests/{code}/conversions`). */
export interface ConvertedApp {
  appId: string;
  slug: string;
  ownerLogin: string | null;
  htmlUrl: string | null;
  clientId: string;
  clientSecret: string;
  webhookSecret: string;
  /** PEM text. */
  privateKey: string;
}

/** The registered App as the studio shows it: never a secret. */
export interface RegisteredApp {
  appId: string;
  slug: string;
  ownerLogin: string | null;
  htmlUrl: string | null;
  clientId: string;
  registeredAt: string;
}

/** The studio's App registration (docs/github-app.md, "Register the App from the studio"). */
export interface AppRegistrationStore {
  /** Records a manifest form's state (its SHA-256), good until `expiresAt`. */
  createState(stateSha256: string, organization: string | null, createdBy: string, expiresAt: Date): Promise<void>;
  /** Takes a state once: who asked for it when it was known and not expired, else null; it is gone afterwards either way. */
  takeState(stateSha256: string): Promise<{ createdBy: string | null } | null>;
  /** Stores the converted App, its secrets sealed; false when an App is already registered. */
  save(app: ConvertedApp, registeredBy: string | null): Promise<boolean>;
  /** The registration without its secrets, or null. */
  registered(): Promise<RegisteredApp | null>;
  /** When the registration was stored (a cheap check replicas poll), or null. */
  version(): Promise<string | null>;
  /** The registration with its secrets opened, or null. */
  credentials(): Promise<GitHubAppCredentials | null>;
}

/** GitHub's manifest conversion: the App's credentials for a code GitHub gave the browser (valid once, one hour). */
export interface ManifestConversion {
  convert(code: string): Promise<ConvertedApp>;
}

/** What the App registration routes use (api/deps.ts). */
export interface AppRegistrationPorts {
  store: AppRegistrationStore;
  conversion: ManifestConversion;
}
