package stacks

import (
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/aws/aws-cdk-go/awscdk/v2"
	"github.com/aws/aws-cdk-go/awscdk/v2/assertions"
	"github.com/aws/aws-cdk-go/awscdk/v2/cxapi"
	"github.com/aws/jsii-runtime-go"
)

// nagFindings lists the AwsSolutions findings (errors and warnings) of a
// stack: "<rule> <resource path>: <message>".
func nagFindings(st awscdk.Stack) []string {
	a := assertions.Annotations_FromStack(st)
	var out []string
	for _, find := range []func(*string, interface{}) *[]*cxapi.SynthesisMessage{a.FindError, a.FindWarning} {
		for _, m := range *find(jsii.String("*"), assertions.Match_StringLikeRegexp(jsii.String("AwsSolutions-.*"))) {
			data := fmt.Sprint(m.Entry.Data)
			rule, _, _ := strings.Cut(data, ":")
			out = append(out, rule+" "+*m.Id+": "+data)
		}
	}
	sort.Strings(out)
	return out
}

// nagOpen are the AwsSolutions findings left open on purpose, each with
// what closes it ("<stack> <rule> <path>": why); none today. The test fails
// on any finding not listed here, and on a listed one that is gone (then
// strike it).
var nagOpen = map[string]string{}

// TestNagAwsSolutions: cdk-nag's AwsSolutions pack finds nothing that is
// neither fixed nor suppressed, with its reason, beside the resource
// (suppress), except the findings nagOpen names.
func TestNagAwsSolutions(t *testing.T) {
	seen := map[string]bool{}
	for name, st := range stacksByName() {
		for _, f := range nagFindings(st) {
			rule, rest, _ := strings.Cut(f, " ")
			path, _, _ := strings.Cut(rest, ":")
			key := name + " " + rule + " " + path
			if _, open := nagOpen[key]; open {
				seen[key] = true
				continue
			}
			t.Errorf("%s: %s", name, f)
		}
	}
	for key, why := range nagOpen {
		if !seen[key] {
			t.Errorf("%s (%s) is no longer found: remove it from nagOpen", key, why)
		}
	}
}
