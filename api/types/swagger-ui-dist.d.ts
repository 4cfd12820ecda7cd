declare module 'swagger-ui-dist' {
  export function getAbsoluteFSPath(): string;
  const swaggerUi: { getAbsoluteFSPath(): string };
  export default swaggerUi;
}
