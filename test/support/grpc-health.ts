// Asks a server's standard grpc.health.v1 service for one service's status, as a Kubernetes
// gRPC probe would; answers the status name or `error <code>`.
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import { protoPath } from 'grpc-health-check';

export function healthStatus(target: string, service: string): Promise<string> {
  const def = grpc.loadPackageDefinition(protoLoader.loadSync(protoPath, { keepCase: true, enums: String })) as any;
  const client = new def.grpc.health.v1.Health(target, grpc.credentials.createInsecure());
  return new Promise((resolve) => {
    client.check({ service }, { deadline: Date.now() + 5000 }, (err: grpc.ServiceError | null, res: { status: string }) => {
      client.close();
      resolve(err ? `error ${err.code}` : res.status);
    });
  });
}
