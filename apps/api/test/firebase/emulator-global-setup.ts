import type { TestProject } from 'vitest/node';
import { startAuthEmulator } from '../../../../tools/firebase-emulator/auth-emulator.mjs';

declare module 'vitest' {
  export interface ProvidedContext {
    firebaseEmulatorHost: string;
    firebaseProjectId: string;
  }
}

/**
 * For the "api-firebase" project: ONE Firebase Auth emulator for every Firebase test file, stopped at
 * the end. Not installed → the run fails, naming the install command (never a silent skip).
 */
export default async function setup(project: TestProject) {
  const emulator = await startAuthEmulator();
  project.provide('firebaseEmulatorHost', emulator.host);
  project.provide('firebaseProjectId', emulator.projectId);
  return () => emulator.stop();
}
