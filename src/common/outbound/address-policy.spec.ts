import { classifyAddress, isCallableAddress, isPublicAddress } from './address-policy';

describe('classifyAddress', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['192.168.1.1', 'private'],
    ['100.64.0.1', 'shared address space'],
    ['::1', 'IPv6 loopback'],
    ['fd12:3456::1', 'unique local'],
    ['::ffff:127.0.0.1', 'IPv4-mapped loopback'],
    ['::ffff:10.0.0.1', 'IPv4-mapped private'],
    ['64:ff9b::a00:1', 'NAT64 of a private address'],
    ['2002:a00:1::', '6to4 of a private address'],
  ])('calls %s (%s) private', (address) => {
    expect(classifyAddress(address)).toBe('private');
  });

  it.each([
    ['169.254.169.254', 'link-local, cloud metadata'],
    ['169.254.1.1', 'link-local'],
    ['100.100.100.200', 'Alibaba Cloud metadata'],
    ['fe80::1', 'IPv6 link-local'],
    ['fd00:ec2::254', 'AWS IPv6 metadata'],
    ['::ffff:169.254.169.254', 'IPv4-mapped link-local'],
    ['::169.254.169.254', 'IPv4-compatible link-local'],
    ['::a9fe:a9fe', 'IPv4-compatible link-local, as URLs write it'],
    ['::127.0.0.1', 'IPv4-compatible loopback'],
    ['::7f00:1', 'IPv4-compatible loopback, as URLs write it'],
    ['::8.8.8.8', 'IPv4-compatible, deprecated'],
    ['64:ff9b::a9fe:a9fe', 'NAT64 of link-local'],
    ['64:ff9b:1::808:808', 'local-use NAT64'],
    ['2002:a9fe:a9fe::1', '6to4 of link-local'],
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'Teredo'],
    ['0.0.0.0', 'this network'],
    ['0.1.2.3', 'this network'],
    ['255.255.255.255', 'broadcast'],
    ['224.0.0.1', 'multicast'],
    ['ff02::1', 'IPv6 multicast'],
    ['192.0.0.8', 'IETF protocol assignments'],
    ['192.0.2.1', 'documentation'],
    ['198.51.100.7', 'documentation'],
    ['203.0.113.9', 'documentation'],
    ['2001:db8::1', 'IPv6 documentation'],
    ['3fff::1', 'IPv6 documentation'],
    ['198.18.0.1', 'benchmarking'],
    ['2001:2::1', 'IPv6 benchmarking'],
    ['240.0.0.1', 'reserved'],
    ['192.88.99.1', '6to4 relay anycast'],
    ['::', 'unspecified'],
    ['100::1', 'discard-only'],
    ['fec0::1', 'deprecated site-local'],
    ['4000::1', 'outside global unicast'],
    ['not-an-ip', 'not an address'],
  ])('forbids %s (%s)', (address) => {
    expect(classifyAddress(address)).toBe('forbidden');
  });

  it.each([
    '8.8.8.8',
    '1.1.1.1',
    '93.184.216.34',
    '2606:4700:4700::1111',
    '::ffff:8.8.8.8',
    '64:ff9b::808:808',
    '2002:808:808::1',
  ])('calls %s public', (address) => {
    expect(classifyAddress(address)).toBe('public');
    expect(isPublicAddress(address)).toBe(true);
  });
});

describe('isCallableAddress', () => {
  it('lets private addresses through only when private networks are allowed', () => {
    expect(isCallableAddress('127.0.0.1', false)).toBe(false);
    expect(isCallableAddress('127.0.0.1', true)).toBe(true);
    expect(isCallableAddress('8.8.8.8', false)).toBe(true);
  });

  it('never lets link-local or metadata addresses through', () => {
    for (const address of ['169.254.169.254', '::a9fe:a9fe', 'fe80::1', 'fd00:ec2::254']) {
      expect(isCallableAddress(address, true)).toBe(false);
    }
  });
});
