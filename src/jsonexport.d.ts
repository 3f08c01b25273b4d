declare module 'jsonexport/dist' {
  const jsonExport: (data: unknown, callback: (err: Error | null, csv: string) => void) => void;
  export default jsonExport;
}
