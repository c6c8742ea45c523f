// The pinned CDK CLI (package.json) is an npm project, not Go: this file
// makes it a module of its own, so that ./... in the repository does not
// walk its node_modules (the CLI ships Go templates that do not build).
module tenger/tools/cdk

go 1.26
