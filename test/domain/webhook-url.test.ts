// Which URLs a webhook may be sent to: https on the public internet, unless a
// deployment allows http or private networks (SSRF).
import { describe, expect, it } from "vitest";
import { nonPublicRange, urlProblem } from "../../src/domain/webhook-url.js";

const STRICT = { allowHttp: false, allowPrivateNetworks: false };

describe("webhook URLs", () => {
  it.each(["https://hooks.example.com/in", "https://93.184.215.14:8443/x?y=1", "https://[2606:4700::1111]/"])(
    "accepts %s",
    (url) => {
      expect(urlProblem(url, STRICT)).toBeNull();
    },
  );

  it.each([
    ["http://hooks.example.com/", "must be an https URL"],
    ["hooks.example.com/in", "must be an absolute URL"],
    ["https://user:pw@hooks.example.com/", "user name or password"],
    ["https://hooks.example.com/#frag", "fragment"],
    ["https://localhost/", "localhost is loopback"],
    ["https://api.localhost/", "is loopback"],
    ["https://127.0.0.1/", "is loopback"],
    ["https://10.1.2.3/", "is private"],
    ["https://169.254.169.254/latest", "is linkLocal"],
    ["https://[::ffff:127.0.0.1]/", "is loopback"],
    ["https://hooks.example.com/\u0000", "control character"],
  ])("refuses %j: %s", (url, problem) => {
    expect(urlProblem(url, STRICT)).toContain(problem);
  });

  it("takes http and private addresses where the deployment allows them", () => {
    expect(urlProblem("http://10.1.2.3/", { allowHttp: true, allowPrivateNetworks: true })).toBeNull();
    expect(urlProblem("ftp://10.1.2.3/", { allowHttp: true, allowPrivateNetworks: true })).toBe(
      "must be an http or https URL",
    );
  });
});

describe("addresses a delivery connects to", () => {
  it.each([
    ["8.8.8.8", null],
    ["2001:4860:4860::8888", null],
    ["127.0.0.1", "loopback"],
    ["::1", "loopback"],
    ["192.168.0.1", "private"],
    ["100.64.0.1", "carrierGradeNat"],
    ["fd00::1", "uniqueLocal"],
    ["::ffff:10.0.0.1", "private"],
    ["64:ff9b::a00:1", "private"],
    ["64:ff9b::808:808", "rfc6052"],
    ["2002:7f00:1::", "loopback"],
    ["not an address", "invalid"],
  ])("%s → %s", (address, range) => {
    expect(nonPublicRange(address)).toBe(range);
  });
});
