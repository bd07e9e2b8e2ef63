import { proxyActivities } from '@temporalio/workflow';
const { ping } = proxyActivities({ startToCloseTimeout: '5s' });
export async function pingWf() { return ping(); }
