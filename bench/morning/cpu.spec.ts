import { cpuBetween } from './cpu';

describe('cpuBetween', () => {
  it('gives each process its seconds between the samples and adds the replicas of a service up', () => {
    const before = { gateway: 100, 'chat@4103': 50, 'chat@4104': 20, redis: 7 };
    const after = { gateway: 350, 'chat@4103': 150, 'chat@4104': 70, redis: 7, 'postgres (backends)': 30 };
    expect(cpuBetween(before, after, 100)).toEqual({
      processes: { gateway: 2.5, 'chat@4103': 1, 'chat@4104': 0.5, redis: 0, 'postgres (backends)': 0.3 },
      services: { gateway: 2.5, chat: 1.5, redis: 0, 'postgres (backends)': 0.3 },
    });
  });

  it('counts a process that went backwards (restarted on the same port) from zero', () => {
    expect(cpuBetween({ 'chat@4103': 500 }, { 'chat@4103': 40 }, 100).processes).toEqual({
      'chat@4103': 0.4,
    });
  });
});
