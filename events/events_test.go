package events

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
)

// schema is the part of a JSON Schema object the tests read.
type schema struct {
	Type                 string
	Required             []string
	Properties           map[string]schema
	AdditionalProperties *bool
	Enum                 []string
	Ref                  string `json:"$ref"`
}

func readSchema(t *testing.T, name string) schema {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("schemas", "v1", name+".schema.json"))
	if err != nil {
		t.Fatal(err)
	}
	var s schema
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return s
}

// checkObject compares a closed object schema with a Go struct: the same
// property names, and required exactly the fields without omitempty.
func checkObject(t *testing.T, name string, s schema, typ reflect.Type) {
	t.Helper()
	var props, required []string
	for i := 0; i < typ.NumField(); i++ {
		field, opts, _ := strings.Cut(typ.Field(i).Tag.Get("json"), ",")
		props = append(props, field)
		if !strings.Contains(opts, "omitempty") {
			required = append(required, field)
		}
	}
	var schemaProps []string
	for p := range s.Properties {
		schemaProps = append(schemaProps, p)
	}
	sort.Strings(props)
	sort.Strings(required)
	sort.Strings(schemaProps)
	sort.Strings(s.Required)
	if !reflect.DeepEqual(props, schemaProps) {
		t.Errorf("%s: schema properties %v, Go fields %v", name, schemaProps, props)
	}
	if !reflect.DeepEqual(required, s.Required) {
		t.Errorf("%s: schema required %v, Go required %v", name, s.Required, required)
	}
	if s.Type != "object" || s.AdditionalProperties == nil || *s.AdditionalProperties {
		t.Errorf("%s: must be a closed object schema", name)
	}
}

// TestSchemasMatchTypes keeps schemas/v1 in step with the Go types.
func TestSchemasMatchTypes(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("schemas", "v1", "*.schema.json"))
	if len(files) != 2 {
		t.Errorf("schema files = %v, want withdrawal and workflow_step", files)
	}
	checkObject(t, "withdrawal", readSchema(t, "withdrawal"), reflect.TypeFor[Withdrawal]())
	step := readSchema(t, "workflow_step")
	checkObject(t, "workflow_step", step, reflect.TypeFor[WorkflowStep]())
	checkObject(t, "workflow_step error", step.Properties["error"], reflect.TypeFor[StepError]())
	if step.Properties["withdrawal"].Ref != "withdrawal.schema.json" {
		t.Errorf("workflow_step withdrawal is %+v, want a $ref to withdrawal.schema.json", step.Properties["withdrawal"])
	}
	if !slices.Equal(step.Properties["step"].Enum, Steps) {
		t.Errorf("workflow_step step enum %v, steps %v", step.Properties["step"].Enum, Steps)
	}
}

// TestStepFunctionsSamples checks the recorded task inputs of the
// withdrawal state machine (the ones functions/workflow's tests run) against
// WorkflowStep: one per step, no field the type does not know, every field
// the schema requires, and a task token on the await step only.
func TestStepFunctionsSamples(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("samples", "sfn_withdrawal_*.json"))
	if len(files) != len(Steps) {
		t.Errorf("samples %v, want one per step %v", files, Steps)
	}
	required := readSchema(t, "workflow_step").Required
	for _, step := range Steps {
		b, err := os.ReadFile(filepath.Join("samples", "sfn_withdrawal_"+step+".json"))
		if err != nil {
			t.Error(err)
			continue
		}
		dec := json.NewDecoder(bytes.NewReader(b))
		dec.DisallowUnknownFields()
		var in WorkflowStep
		if err := dec.Decode(&in); err != nil {
			t.Errorf("%s: %v", step, err)
			continue
		}
		var keys map[string]json.RawMessage
		_ = json.Unmarshal(b, &keys)
		for _, k := range required {
			if _, ok := keys[k]; !ok {
				t.Errorf("%s: lacks required %q", step, k)
			}
		}
		if in.Step != step || in.Withdrawal.WithdrawalID != "{{withdrawalId}}" || in.ExecutionID == "" || in.Error == nil {
			t.Errorf("%s: decoded %+v", step, in)
		}
		if (in.TaskToken != "") != (step == StepAwait) {
			t.Errorf("%s: task token %q (await only)", step, in.TaskToken)
		}
	}
}

// TestSampleTable keeps README.md's sample table accurate: every sample is
// named by a row (by name or a pattern with * or <...>), and every name a
// row gives matches a sample.
func TestSampleTable(t *testing.T) {
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	var rows []string
	for _, line := range strings.Split(string(readme), "\n") {
		if strings.HasPrefix(line, "| `") {
			first, _, _ := strings.Cut(strings.TrimPrefix(line, "| "), " |")
			for _, m := range regexp.MustCompile("`([^`]+\\.json)`").FindAllStringSubmatch(first, -1) {
				rows = append(rows, m[1])
			}
		}
	}
	patterns := make([]*regexp.Regexp, len(rows))
	for i, r := range rows {
		p := regexp.QuoteMeta(r)
		p = strings.ReplaceAll(p, `\*`, `[a-z0-9_]+`)
		p = regexp.MustCompile(`<[a-z]+>`).ReplaceAllString(p, `[a-z0-9_]+`)
		patterns[i] = regexp.MustCompile("^" + p + "$")
	}
	files, _ := filepath.Glob(filepath.Join("samples", "*.json"))
	used := make([]bool, len(rows))
	for _, f := range files {
		name := filepath.Base(f)
		found := false
		for i, p := range patterns {
			if p.MatchString(name) {
				found, used[i] = true, true
			}
		}
		if !found {
			t.Errorf("sample %s has no row in README.md's table", name)
		}
	}
	for i, ok := range used {
		if !ok {
			t.Errorf("README.md's table names %s, which matches no sample", rows[i])
		}
	}
}
