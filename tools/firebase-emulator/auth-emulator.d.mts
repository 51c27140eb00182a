export declare const INSTALL_COMMAND: string;
export declare function startAuthEmulator(options?: { projectId?: string; timeoutMs?: number }): Promise<{
  host: string;
  projectId: string;
  stop(): Promise<void>;
}>;
