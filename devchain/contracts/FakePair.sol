// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

/// Emits the events of a Uniswap V2 pair, of an ERC-20, of the factory and of a launchpad
/// without being any of them, for the indexer's tests (devchain/deploy.ts never deploys it). It
/// claims real tokens as its token0 and token1, and names real holders in its Transfers.
contract FakePair {
    event Transfer(address indexed from, address indexed to, uint256 value);
    event Mint(address indexed sender, uint256 amount0, uint256 amount1);
    event Burn(address indexed sender, uint256 amount0, uint256 amount1, address indexed to);
    event Swap(address indexed sender, uint256 amount0In, uint256 amount1In, uint256 amount0Out, uint256 amount1Out, address indexed to);
    event Sync(uint112 reserve0, uint112 reserve1);
    event PairCreated(address indexed token0, address indexed token1, address pair, uint256);
    event TokenLaunched(
        address indexed token,
        address indexed pair,
        address indexed creator,
        string name,
        string symbol,
        uint256 totalSupply
    );

    address public immutable token0;
    address public immutable token1;

    constructor(address token0_, address token1_) {
        token0 = token0_;
        token1 = token1_;
    }

    function getReserves() external pure returns (uint112, uint112, uint32) {
        return (type(uint112).max, 1, 0);
    }

    /// One of each event, with `amount` (2^256-1 or anything) where an amount goes.
    function lie(address victim, uint256 amount) external {
        emit PairCreated(token0, token1, address(this), 1);
        emit TokenLaunched(address(this), address(this), msg.sender, "Fake\u0000Token", "FAKE", amount);
        emit Transfer(victim, msg.sender, amount);
        emit Transfer(address(0), msg.sender, amount);
        emit Mint(msg.sender, amount, amount);
        emit Swap(msg.sender, amount, 0, 0, amount, msg.sender);
        emit Sync(type(uint112).max, 1);
        emit Burn(msg.sender, amount, amount, msg.sender);
    }
}
