/** Routes of this area are declared here (see docs/architecture.md). */
export {};
