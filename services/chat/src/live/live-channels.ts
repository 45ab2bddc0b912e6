// The live chat's names are the service's (live-channels.ts at its root): chatrooms and users tell the replicas
// through them without depending on this folder. Re-exported here for live's own files.
export * from '../live-channels';
