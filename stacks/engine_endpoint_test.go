package stacks

import (
	"fmt"
	"sort"
	"strings"
	"tenger/internal/platform"
	"testing"

	"github.com/aws/jsii-runtime-go"
)

// engineClients are the functions that submit engine commands: they run in
// the VPC and read the engine key. Every other function stays outside.
// wsapi (the Binance-compatible WebSocket API) places and cancels orders as
// the openapi function does.
var engineClients = map[string]bool{"trade": true, "wallet": true, "ws": true, "workflow": true, "openapi": true, "wsapi": true, "futures": true, "competition": true, "earn": true}

// deployedFunction is one of our Lambda functions in a stack's template.
type deployedFunction struct {
	stack, id string
	props     obj
}

// ourFunctions returns our functions (not CDK's helpers) by SERVICE.
func ourFunctions(t *testing.T) map[string]deployedFunction {
	t.Helper()
	out := map[string]deployedFunction{}
	for stack := range raw {
		for id, r := range resources(stack, "AWS::Lambda::Function") {
			p := props(r)
			if p["Handler"] != "bootstrap" {
				continue
			}
			vars, _ := p["Environment"].(obj)["Variables"].(obj)
			out[vars["SERVICE"].(string)] = deployedFunction{stack, id, p}
		}
	}
	for _, name := range FunctionNames() {
		if _, ok := out[name]; !ok {
			t.Fatalf("function %s not deployed", name)
		}
	}
	return out
}

// roleID is the logical id of a function's role (Fn::GetAtt [role, Arn]).
func (f deployedFunction) roleID(t *testing.T) string {
	t.Helper()
	att, _ := f.props["Role"].(obj)["Fn::GetAtt"].([]any)
	if len(att) != 2 {
		t.Fatalf("%s: role %v", f.id, f.props["Role"])
	}
	return att[0].(string)
}

// statements returns the statements of the inline policies attached to a
// function's role.
func (f deployedFunction) statements(t *testing.T) []obj {
	t.Helper()
	ref := mustJSON(obj{"Ref": f.roleID(t)})
	var out []obj
	for _, p := range resources(f.stack, "AWS::IAM::Policy") {
		if !strings.Contains(mustJSON(props(p)["Roles"]), ref) {
			continue
		}
		for _, st := range asList(props(p)["PolicyDocument"].(obj)["Statement"]) {
			out = append(out, st.(obj))
		}
	}
	return out
}

// TestNetworkStack: one VPC over two AZs with public subnets (the engine)
// and private subnets with egress (the engine's callers), whose default
// route is the one NAT gateway, and the DynamoDB gateway endpoint.
func TestNetworkStack(t *testing.T) {
	tpl := templates["network"]
	expect(t, "one VPC", func() { tpl.ResourceCountIs(jsii.String("AWS::EC2::VPC"), jsii.Number(1)) })
	// The DynamoDB gateway endpoint serves all four subnets' route tables.
	endpoints := resources("network", "AWS::EC2::VPCEndpoint")
	for _, e := range endpoints {
		p := props(e)
		if p["VpcEndpointType"] != "Gateway" || !strings.Contains(mustJSON(p["ServiceName"]), ".dynamodb") || len(asList(p["RouteTableIds"])) != 4 {
			t.Errorf("VPC endpoint %s, want the DynamoDB gateway on every route table", mustJSON(p))
		}
	}
	if len(endpoints) != 1 {
		t.Errorf("VPC endpoints = %d, want the DynamoDB gateway only", len(endpoints))
	}
	nats := 0
	for stack := range raw {
		nats += len(resources(stack, "AWS::EC2::NatGateway"))
	}
	if nats != 1 || len(resources("network", "AWS::EC2::NatGateway")) != 1 {
		t.Errorf("NAT gateways = %d, want 1 (in the network stack)", nats)
	}
	var natID string
	for id := range resources("network", "AWS::EC2::NatGateway") {
		natID = id
	}
	public, private := 0, 0
	for id, r := range resources("network", "AWS::EC2::Subnet") {
		switch {
		case strings.HasPrefix(id, "Vpcpublic"):
			public++
			if props(r)["MapPublicIpOnLaunch"] != true {
				t.Errorf("%s: public subnet without public IPs", id)
			}
		case strings.HasPrefix(id, "Vpcfunctions"):
			private++
			if props(r)["MapPublicIpOnLaunch"] != false {
				t.Errorf("%s: private subnet maps public IPs", id)
			}
		default:
			t.Errorf("unexpected subnet %s", id)
		}
	}
	if public != 2 || private != 2 {
		t.Errorf("subnets: public %d, private %d; want 2 and 2", public, private)
	}
	// Both private route tables send their default route to the NAT gateway.
	natRoutes := 0
	for id, r := range resources("network", "AWS::EC2::Route") {
		p := props(r)
		if !strings.HasPrefix(id, "Vpcfunctions") || p["DestinationCidrBlock"] != "0.0.0.0/0" {
			continue
		}
		if mustJSON(p["NatGatewayId"]) != mustJSON(obj{"Ref": natID}) {
			t.Errorf("%s: default route %v, want the NAT gateway %s", id, p, natID)
		}
		natRoutes++
	}
	if natRoutes != 2 {
		t.Errorf("private default routes = %d, want 2", natRoutes)
	}
}

// sgRule is one security group rule, wherever it is written (inline in the
// group or a rule resource in any stack).
type sgRule struct {
	stack, group string // group: the rule's group, as JSON
	ingress      bool
	props        obj
}

func (r sgRule) String() string {
	return fmt.Sprintf("%s %s %s", r.stack, map[bool]string{true: "ingress", false: "egress"}[r.ingress], mustJSON(r.props))
}

// securityGroupRules returns every rule of every stack.
func securityGroupRules() []sgRule {
	var out []sgRule
	for stack := range raw {
		for id, r := range resources(stack, "AWS::EC2::SecurityGroup") {
			self := mustJSON(obj{"Fn::GetAtt": []any{id, "GroupId"}})
			for _, in := range asList(props(r)["SecurityGroupIngress"]) {
				out = append(out, sgRule{stack, self, true, in.(obj)})
			}
			for _, e := range asList(props(r)["SecurityGroupEgress"]) {
				out = append(out, sgRule{stack, self, false, e.(obj)})
			}
		}
		for _, r := range resources(stack, "AWS::EC2::SecurityGroupIngress") {
			out = append(out, sgRule{stack, mustJSON(props(r)["GroupId"]), true, props(r)})
		}
		for _, r := range resources(stack, "AWS::EC2::SecurityGroupEgress") {
			out = append(out, sgRule{stack, mustJSON(props(r)["GroupId"]), false, props(r)})
		}
	}
	return out
}

// ruleSummary is "ingress|egress proto from-to peer" with the peer a CIDR or
// "sg:<which>" for the engine's, the clients' or another group.
func ruleSummary(r sgRule) string {
	peer := fmt.Sprint(r.props["CidrIp"])
	for _, k := range []string{"SourceSecurityGroupId", "DestinationSecurityGroupId"} {
		if v, ok := r.props[k]; ok {
			switch g := mustJSON(v); {
			case strings.Contains(g, "EngineClientSecurityGroup"):
				peer = "sg:clients"
			case strings.Contains(g, "EngineSecurityGroup"):
				peer = "sg:engine"
			case strings.Contains(g, "EfsSecurityGroup"):
				peer = "sg:efs"
			default:
				peer = "sg:" + g
			}
		}
	}
	dir := "egress"
	if r.ingress {
		dir = "ingress"
	}
	return fmt.Sprintf("%s %v %v-%v %s", dir, r.props["IpProtocol"], r.props["FromPort"], r.props["ToPort"], peer)
}

// TestEngineSecurityGroups: nothing reaches the engine task but the engine
// port from the engine client group; the clients reach the engine port and
// HTTPS and nothing else, and accept nothing.
func TestEngineSecurityGroups(t *testing.T) {
	groups := resources("network", "AWS::EC2::SecurityGroup")
	if len(groups) != 2 {
		t.Fatalf("network security groups = %d, want 2", len(groups))
	}
	rulesOf := func(prefix string) []string {
		var out []string
		for _, r := range securityGroupRules() {
			// The group is the network stack's own (GetAtt) or imported
			// from it; "EngineClientSecurityGroup" does not contain
			// "EngineSecurityGroup".
			if strings.Contains(r.group, prefix) {
				out = append(out, ruleSummary(r))
			}
		}
		sort.Strings(out)
		return out
	}
	port := fmt.Sprint(enginePort)
	for group, want := range map[string][]string{
		"EngineSecurityGroup": {
			"egress tcp 2049-2049 sg:efs",
			"egress tcp 443-443 0.0.0.0/0",
			"ingress tcp " + port + "-" + port + " sg:clients",
		},
		"EngineClientSecurityGroup": {
			"egress tcp 443-443 0.0.0.0/0",
			"egress tcp " + port + "-" + port + " sg:engine",
		},
	} {
		if got := rulesOf(group); strings.Join(got, "; ") != strings.Join(want, "; ") {
			t.Errorf("%s rules:\n got  %q\n want %q", group, got, want)
		}
	}
	if enginePort != 8082 {
		t.Errorf("enginePort = %d, want 8082 (engine-fargate's ENGINE_LISTEN)", enginePort)
	}
}

// TestEngineClientFunctions: trade, wallet, ws, workflow, openapi, wsapi, futures, competition and earn run in the
// private subnets with the engine client group (and the VPC access policy
// Lambda needs for that), know the engine key's ARN and may read that key;
// every other function stays outside the VPC and has neither.
func TestEngineClientFunctions(t *testing.T) {
	fns := ourFunctions(t)
	for name, f := range fns {
		client := engineClients[name]
		vpc, inVPC := f.props["VpcConfig"].(obj)
		vars := f.props["Environment"].(obj)["Variables"].(obj)
		arn, hasKey := vars[envEngineKeySecret]
		var readsKey bool
		for _, st := range f.statements(t) {
			if strings.Contains(mustJSON(st["Action"]), "secretsmanager:GetSecretValue") &&
				strings.Contains(mustJSON(st["Resource"]), "EngineKey") {
				readsKey = true
			}
		}
		var vpcPolicy bool
		role := resources(f.stack, "AWS::IAM::Role")[f.roleID(t)]
		vpcPolicy = strings.Contains(mustJSON(props(role)["ManagedPolicyArns"]), "service-role/AWSLambdaVPCAccessExecutionRole")

		if !client {
			if inVPC || hasKey || readsKey || vpcPolicy {
				t.Errorf("%s: VpcConfig %v, %s %v, reads the engine key %v, VPC policy %v; want none",
					name, vpc, envEngineKeySecret, arn, readsKey, vpcPolicy)
			}
			continue
		}
		if !inVPC {
			t.Errorf("%s: not in the VPC", name)
		} else {
			sgs := asList(vpc["SecurityGroupIds"])
			if len(sgs) != 1 || !strings.Contains(mustJSON(sgs[0]), "EngineClientSecurityGroup") {
				t.Errorf("%s: security groups %s, want the engine client group", name, mustJSON(sgs))
			}
			subnets := asList(vpc["SubnetIds"])
			if len(subnets) != 2 || !strings.Contains(mustJSON(subnets), "Vpcfunctions") || strings.Contains(mustJSON(subnets), "Vpcpublic") {
				t.Errorf("%s: subnets %s, want the two private ones", name, mustJSON(subnets))
			}
		}
		if !hasKey || !strings.Contains(mustJSON(arn), "EngineKey") {
			t.Errorf("%s: %s = %v, want the engine key's ARN", name, envEngineKeySecret, arn)
		}
		if !readsKey {
			t.Errorf("%s: may not read the engine key", name)
		}
		if !vpcPolicy {
			t.Errorf("%s: role lacks AWSLambdaVPCAccessExecutionRole", name)
		}
	}
	for name := range engineClients {
		if _, ok := fns[name]; !ok {
			t.Errorf("engine client %s not deployed", name)
		}
	}
}

// TestEngineTaskEndpoint: the engine task listens on the engine port (a
// port mapping and ENGINE_LISTEN), gets the engine key as an ECS secret
// that its execution role (not its task role) may read, and knows no queue.
func TestEngineTaskEndpoint(t *testing.T) {
	tasks := resources("engine", "AWS::ECS::TaskDefinition")
	if len(tasks) != 1 {
		t.Fatalf("task definitions = %d", len(tasks))
	}
	for _, r := range tasks {
		// The engine's container; the trace collector beside it has no
		// secret and no port (TestEngineTraceCollector).
		c := engineContainer(t, r)
		env := map[string]string{}
		for _, e := range asList(c["Environment"]) {
			env[e.(obj)["Name"].(string)] = mustJSON(e.(obj)["Value"])
		}
		if env[envEngineListen] != `":8082"` {
			t.Errorf("%s = %s, want \":8082\"", envEngineListen, env[envEngineListen])
		}
		for name := range env {
			if strings.Contains(name, "QUEUE") || name == envEngineKey {
				t.Errorf("engine environment has %s", name)
			}
		}
		secrets := asList(c["Secrets"])
		if len(secrets) != 1 || secrets[0].(obj)["Name"] != envEngineKey ||
			!strings.Contains(mustJSON(secrets[0].(obj)["ValueFrom"]), "EngineKey") {
			t.Errorf("engine secrets = %s, want %s from the engine key", mustJSON(secrets), envEngineKey)
		}
		ports := map[float64]bool{}
		for _, m := range asList(c["PortMappings"]) {
			ports[m.(obj)["ContainerPort"].(float64)] = true
		}
		if len(ports) != 2 || !ports[8081] || !ports[8082] {
			t.Errorf("port mappings = %v, want 8081 (health) and 8082 (endpoint)", ports)
		}
	}
	readers := map[string]bool{}
	for id, p := range resources("engine", "AWS::IAM::Policy") {
		for _, st := range asList(props(p)["PolicyDocument"].(obj)["Statement"]) {
			if strings.Contains(mustJSON(st.(obj)["Action"]), "secretsmanager:") {
				readers[id] = true
				if res := mustJSON(st.(obj)["Resource"]); !strings.Contains(res, "EngineKey") || strings.Contains(res, "*") {
					t.Errorf("%s reads secrets %s", id, res)
				}
			}
		}
	}
	if len(readers) != 1 {
		t.Errorf("engine policies reading secrets: %v, want the execution role's", readers)
	}
	for id := range readers {
		if !strings.Contains(id, "ExecutionRole") {
			t.Errorf("%s reads the engine key, want only the execution role", id)
		}
	}
}

// TestEngineKeySecret: the engine key is generated like the auth key, in
// the data stack.
func TestEngineKeySecret(t *testing.T) {
	// The names the stacks set are the ones the runtime reads.
	for set, read := range map[string]string{envEngineKey: platform.EnvEngineKey, envEngineKeySecret: platform.EnvEngineKeySecret} {
		if set != read {
			t.Fatalf("the stacks set %s, the platform reads %s", set, read)
		}
	}
	n := 0
	for id, s := range resources("data", "AWS::SecretsManager::Secret") {
		if !strings.HasPrefix(id, "EngineKey") {
			continue
		}
		n++
		gen, _ := props(s)["GenerateSecretString"].(obj)
		if gen["PasswordLength"] != float64(64) || gen["ExcludePunctuation"] != true || gen["IncludeSpace"] != false {
			t.Errorf("%s: generated as %v", id, gen)
		}
		if _, given := props(s)["SecretString"]; given {
			t.Errorf("%s: a secret value in the template", id)
		}
		if s["DeletionPolicy"] != "Delete" {
			t.Errorf("%s: dev deletion policy %v", id, s["DeletionPolicy"])
		}
	}
	if n != 1 {
		t.Errorf("engine keys = %d, want 1", n)
	}
}

// TestNoOrdersQueue: no order command travels by queue any more. The only
// SQS queues left are the stream consumers' failure queues (standard, not
// FIFO); nothing is told a queue URL, and nothing may receive from a queue.
func TestNoOrdersQueue(t *testing.T) {
	queues := 0
	for stack := range raw {
		for id, q := range resources(stack, "AWS::SQS::Queue") {
			queues++
			if props(q)["FifoQueue"] == true || strings.Contains(id, "Orders") {
				t.Errorf("%s/%s: an orders or FIFO queue", stack, id)
			}
			if !strings.HasPrefix(id, "StreamFailures") && !strings.HasPrefix(id, "StartFailures") {
				t.Errorf("%s/%s: a queue other than the failure queues", stack, id)
			}
		}
		for id, p := range resources(stack, "AWS::IAM::Policy") {
			if doc := mustJSON(props(p)["PolicyDocument"]); strings.Contains(doc, "sqs:ReceiveMessage") {
				t.Errorf("%s/%s may receive from a queue", stack, id)
			}
		}
		if strings.Contains(mustJSON(raw[stack]), "ORDERS_QUEUE_URL") {
			t.Errorf("%s: a template names ORDERS_QUEUE_URL", stack)
		}
	}
	if queues != 2 {
		t.Errorf("SQS queues = %d, want 2 (the stream and workflow-start failure queues)", queues)
	}
}
