package stacks

import (
	"regexp"
	"sort"
	"strings"
	"testing"
)

// taskContainers are the engine task definition's containers by name.
func taskContainers(t *testing.T, task obj) map[string]obj {
	t.Helper()
	out := map[string]obj{}
	for _, c := range asList(props(task)["ContainerDefinitions"]) {
		name, _ := c.(obj)["Name"].(string)
		if _, dup := out[name]; dup {
			t.Fatalf("two containers named %q", name)
		}
		out[name] = c.(obj)
	}
	return out
}

// engineContainer is the engine's own container of the task definition.
func engineContainer(t *testing.T, task obj) obj {
	t.Helper()
	c, ok := taskContainers(t, task)["engine"]
	if !ok {
		t.Fatal("no engine container")
	}
	return c
}

// engineTask is the engine stack's one task definition.
func engineTask(t *testing.T) obj {
	t.Helper()
	tasks := resources("engine", "AWS::ECS::TaskDefinition")
	if len(tasks) != 1 {
		t.Fatalf("task definitions = %d", len(tasks))
	}
	for _, r := range tasks {
		return r
	}
	return nil
}

// containerEnv is a container's environment by name.
func containerEnv(c obj) map[string]string {
	env := map[string]string{}
	for _, e := range asList(c["Environment"]) {
		v, _ := e.(obj)["Value"].(string)
		env[e.(obj)["Name"].(string)] = v
	}
	return env
}

// TestEngineTraceCollector: the ADOT collector runs beside the engine as a
// pinned image, not essential (the engine runs on without it), with a small
// share of the task, its logs in the engine's log group and restarted when
// it dies; its OTLP receiver listens on the task's loopback only, where the
// engine's environment points its spans, and it exports to X-Ray in the
// stack's region.
func TestEngineTraceCollector(t *testing.T) {
	task := engineTask(t)
	containers := taskContainers(t, task)
	names := make([]string, 0, len(containers))
	for n := range containers {
		names = append(names, n)
	}
	sort.Strings(names)
	if strings.Join(names, ",") != "engine,otel-collector" {
		t.Fatalf("containers = %v, want the engine and the collector", names)
	}
	col, eng := containers["otel-collector"], containers["engine"]

	pinned := regexp.MustCompile(`^public\.ecr\.aws/aws-observability/aws-otel-collector:v\d+\.\d+\.\d+$`)
	if img, _ := col["Image"].(string); !pinned.MatchString(img) || img != engineTraceCollector {
		t.Errorf("collector image %v, want a pinned version of the ADOT collector", col["Image"])
	}
	if col["Essential"] != false {
		t.Errorf("collector Essential = %v, want false", col["Essential"])
	}
	if e, set := eng["Essential"]; set && e != true {
		t.Errorf("engine Essential = %v", e)
	}
	// A small share: the engine keeps nearly all of the task's CPU, and the
	// collector's memory is capped well inside the task's.
	taskCPU := mustNumber(t, props(task)["Cpu"])
	if c, e := col["Cpu"].(float64), eng["Cpu"].(float64); c <= 0 || c > taskCPU/4 || e < 3*taskCPU/4 || c+e > taskCPU {
		t.Errorf("CPU: collector %v, engine %v of the task's %v", c, e, taskCPU)
	}
	taskMiB := mustNumber(t, props(task)["Memory"])
	if m, _ := col["Memory"].(float64); m <= 0 || m > taskMiB/4 {
		t.Errorf("collector memory limit %v MiB of the task's %v", col["Memory"], taskMiB)
	}
	if col["ReadonlyRootFilesystem"] != true || col["Secrets"] != nil || col["PortMappings"] != nil {
		t.Errorf("collector: read-only root %v, secrets %v, ports %v", col["ReadonlyRootFilesystem"], col["Secrets"], col["PortMappings"])
	}
	if rp, _ := col["RestartPolicy"].(obj); rp["Enabled"] != true {
		t.Errorf("collector restart policy %v", col["RestartPolicy"])
	}
	// Its logs go where the engine's go (a log group with retention).
	colLogs, engLogs := col["LogConfiguration"].(obj), eng["LogConfiguration"].(obj)
	if colLogs["LogDriver"] != "awslogs" || mustJSON(colLogs["Options"].(obj)["awslogs-group"]) != mustJSON(engLogs["Options"].(obj)["awslogs-group"]) {
		t.Errorf("collector logs %s, engine logs %s", mustJSON(colLogs), mustJSON(engLogs))
	}
	// The engine starts after the collector, and so stops before it.
	if deps := mustJSON(eng["DependsOn"]); deps != `[{"Condition":"START","ContainerName":"otel-collector"}]` {
		t.Errorf("engine DependsOn = %s", deps)
	}

	// The collector's pipeline: OTLP/HTTP on the loopback in, X-Ray out.
	config := containerEnv(col)["AOT_CONFIG_CONTENT"]
	if strings.Contains(config, "\t") {
		t.Errorf("collector configuration indented with tabs (not YAML):\n%s", config)
	}
	receiver := regexp.MustCompile(`(?m)^      http:\n        endpoint: (\S+)$`).FindStringSubmatch(config)
	if receiver == nil || receiver[1] != "127.0.0.1:4318" {
		t.Fatalf("collector OTLP/HTTP receiver %v, want on the loopback:\n%s", receiver, config)
	}
	for _, want := range []string{"  awsxray:\n    region: " + testRegion + "\n", "exporters: [awsxray]", "receivers: [otlp]",
		"indexed_attributes:\n        - engine.outcome\n"} {
		if !strings.Contains(config, want) {
			t.Errorf("collector configuration lacks %q:\n%s", want, config)
		}
	}
	if strings.Contains(config, "grpc") || strings.Contains(config, "0.0.0.0") {
		t.Errorf("collector listens beyond OTLP/HTTP on the loopback:\n%s", config)
	}

	// The engine's environment turns tracing on, towards that receiver.
	env := containerEnv(eng)
	if env["OTEL_EXPORTER_OTLP_ENDPOINT"] != "http://"+receiver[1] {
		t.Errorf("engine OTEL_EXPORTER_OTLP_ENDPOINT = %q, want the collector's http://%s", env["OTEL_EXPORTER_OTLP_ENDPOINT"], receiver[1])
	}
	if env["OTEL_SERVICE_NAME"] != "tenger-dev-engine" || env["OTEL_TRACES_SAMPLER_ARG"] != "0.05" {
		t.Errorf("engine OTEL_SERVICE_NAME %q, OTEL_TRACES_SAMPLER_ARG %q", env["OTEL_SERVICE_NAME"], env["OTEL_TRACES_SAMPLER_ARG"])
	}
	if _, set := containerEnv(col)["OTEL_EXPORTER_OTLP_ENDPOINT"]; set {
		t.Error("the collector has the engine's tracing environment")
	}
}

// TestEngineTaskRoleMayPutTraces: the task role (the collector's
// credentials) may put trace segments and telemetry and read the sampling
// rules, on "*" (X-Ray's actions have no resource-level permissions), with
// cdk-nag's finding suppressed for that reason; the execution role may not.
func TestEngineTaskRoleMayPutTraces(t *testing.T) {
	want := []string{"xray:GetSamplingRules", "xray:GetSamplingTargets", "xray:PutTelemetryRecords", "xray:PutTraceSegments"}
	found := 0
	for id, p := range resources("engine", "AWS::IAM::Policy") {
		for _, s := range asList(props(p)["PolicyDocument"].(obj)["Statement"]) {
			st := s.(obj)
			if !strings.Contains(mustJSON(st["Action"]), "xray:") {
				continue
			}
			if !strings.Contains(id, "TaskRole") {
				t.Errorf("%s (not the task role) may use X-Ray: %s", id, mustJSON(st))
				continue
			}
			found++
			var actions []string
			for _, a := range asList(st["Action"]) {
				actions = append(actions, a.(string))
			}
			sort.Strings(actions)
			if strings.Join(actions, ",") != strings.Join(want, ",") || st["Resource"] != "*" || st["Effect"] != "Allow" {
				t.Errorf("X-Ray statement %s, want %v on *", mustJSON(st), want)
			}
			reasons := mustJSON(p["Metadata"])
			if !strings.Contains(reasons, "AwsSolutions-IAM5") || !strings.Contains(reasons, "X-Ray") {
				t.Errorf("%s: no IAM5 suppression giving X-Ray's reason: %s", id, reasons)
			}
		}
	}
	if found != 1 {
		t.Errorf("X-Ray statements on the task role = %d, want 1", found)
	}
}

func mustNumber(t *testing.T, v any) float64 {
	t.Helper()
	switch n := v.(type) {
	case float64:
		return n
	case string:
		var f float64
		for _, r := range n {
			if r < '0' || r > '9' {
				t.Fatalf("not a number: %q", n)
			}
			f = f*10 + float64(r-'0')
		}
		return f
	}
	t.Fatalf("not a number: %v", v)
	return 0
}
