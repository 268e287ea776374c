// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

/// Everything a hostile ERC-20 can do, for the indexer's tests (devchain/deploy.ts never deploys
/// it): name(), symbol() and decimals() answer raw bytes set by the owner (an ABI string, a
/// bytes32, invalid UTF-8, anything), revert, or do not exist; transfers may burn a fee that the
/// Transfer event does not show; a rebase moves every balance with no event; balanceOf may lie
/// (a constant for everyone but the addresses marked honest, so a pair still works); and the
/// owner can emit Transfer events that move nothing, or logs of any layout.
contract HostileToken {
    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);

    address public immutable owner;
    /// Balances are shares: balanceOf is shares * rebaseNum / rebaseDen.
    mapping(address => uint256) public shares;
    uint256 public totalShares;
    uint256 public rebaseNum = 1;
    uint256 public rebaseDen = 1;
    mapping(address => mapping(address => uint256)) public allowance;
    /// Basis points of every transfer burned while the Transfer event names the full amount.
    uint256 public feeBps;
    /// When set, balanceOf answers `liedBalance` for every address not marked honest.
    bool public lying;
    uint256 public liedBalance;
    mapping(address => bool) public honest;

    /// How name(), symbol() and decimals() answer, by selector: 0 no such function (an empty
    /// revert), 1 the stored bytes as they are, 2 a revert with a reason.
    mapping(bytes4 => uint8) public modes;
    mapping(bytes4 => bytes) private answers;

    modifier onlyOwner() {
        require(msg.sender == owner, "HostileToken: owner");
        _;
    }

    constructor(uint256 supply) {
        owner = msg.sender;
        _mint(msg.sender, supply);
    }

    function setAnswer(bytes4 selector, uint8 mode, bytes calldata answer) external onlyOwner {
        modes[selector] = mode;
        answers[selector] = answer;
    }

    function setFee(uint256 bps) external onlyOwner {
        require(bps <= 10_000, "HostileToken: fee");
        feeBps = bps;
    }

    function setLie(bool on, uint256 value) external onlyOwner {
        lying = on;
        liedBalance = value;
    }

    function setHonest(address account, bool on) external onlyOwner {
        honest[account] = on;
    }

    /// Every balance and the supply times num/den, without an event.
    function rebase(uint256 num, uint256 den) external onlyOwner {
        require(num > 0 && den > 0, "HostileToken: ratio");
        rebaseNum = num;
        rebaseDen = den;
    }

    function mint(address to, uint256 value) external onlyOwner {
        _mint(to, value);
    }

    /// A Transfer event that moves nothing.
    function fakeTransfer(address from, address to, uint256 value) external onlyOwner {
        emit Transfer(from, to, value);
    }

    /// A log with any topics (at most four) and data.
    function rawLog(bytes32[] calldata topics, bytes calldata data) external onlyOwner {
        bytes memory d = data;
        uint256 n = topics.length;
        require(n <= 4, "HostileToken: topics");
        bytes32 t0 = n > 0 ? topics[0] : bytes32(0);
        bytes32 t1 = n > 1 ? topics[1] : bytes32(0);
        bytes32 t2 = n > 2 ? topics[2] : bytes32(0);
        bytes32 t3 = n > 3 ? topics[3] : bytes32(0);
        assembly {
            let p := add(d, 32)
            let len := mload(d)
            switch n
            case 0 { log0(p, len) }
            case 1 { log1(p, len, t0) }
            case 2 { log2(p, len, t0, t1) }
            case 3 { log3(p, len, t0, t1, t2) }
            default { log4(p, len, t0, t1, t2, t3) }
        }
    }

    /// The true balance, whatever balanceOf answers.
    function realBalanceOf(address account) public view returns (uint256) {
        return (shares[account] * rebaseNum) / rebaseDen;
    }

    function balanceOf(address account) external view returns (uint256) {
        if (lying && !honest[account]) return liedBalance;
        return realBalanceOf(account);
    }

    function totalSupply() external view returns (uint256) {
        return (totalShares * rebaseNum) / rebaseDen;
    }

    function approve(address spender, uint256 value) external returns (bool) {
        allowance[msg.sender][spender] = value;
        emit Approval(msg.sender, spender, value);
        return true;
    }

    function transfer(address to, uint256 value) external returns (bool) {
        _transfer(msg.sender, to, value);
        return true;
    }

    function transferFrom(address from, address to, uint256 value) external returns (bool) {
        uint256 allowed = allowance[from][msg.sender];
        if (allowed != type(uint256).max) {
            require(allowed >= value, "HostileToken: allowance");
            allowance[from][msg.sender] = allowed - value;
        }
        _transfer(from, to, value);
        return true;
    }

    /// name(), symbol(), decimals() and anything else: the answer set for the selector.
    fallback(bytes calldata) external returns (bytes memory) {
        uint8 mode = modes[msg.sig];
        if (mode == 1) return answers[msg.sig];
        if (mode == 2) revert("HostileToken: no answer");
        revert();
    }

    function _toShares(uint256 value) private view returns (uint256) {
        return (value * rebaseDen) / rebaseNum;
    }

    function _transfer(address from, address to, uint256 value) private {
        uint256 moved = _toShares(value);
        require(shares[from] >= moved, "HostileToken: balance");
        uint256 fee = (moved * feeBps) / 10_000;
        unchecked {
            shares[from] -= moved;
            totalShares -= fee;
        }
        shares[to] += moved - fee;
        emit Transfer(from, to, value);
    }

    function _mint(address to, uint256 value) private {
        uint256 moved = _toShares(value);
        totalShares += moved;
        shares[to] += moved;
        emit Transfer(address(0), to, value);
    }
}
