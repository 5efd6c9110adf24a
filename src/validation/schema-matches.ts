/** Whether two types are the same, property for property (optional and readonly included). */
export type IsSame<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;

/**
 * A compile-time check that a response schema describes exactly the type a service returns, so
 * the API reference cannot drift from the code: `schemaMatches<z.output<typeof s>, Type>(true)`
 * stops compiling when they differ. Does nothing at run time.
 */
export function schemaMatches<Described, Returned>(proof: IsSame<Described, Returned>): void {
  void proof;
}
