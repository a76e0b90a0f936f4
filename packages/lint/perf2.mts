import { lintFiles } from '@verdict/lint';
const cpu = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; };
await lintFiles(['/tmp/p300.yaml']);
const t = cpu(); await lintFiles(['/tmp/p2000.yaml']); console.log(Math.round(cpu() - t));
